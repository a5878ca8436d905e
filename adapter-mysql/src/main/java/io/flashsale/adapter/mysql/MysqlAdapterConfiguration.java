package io.flashsale.adapter.mysql;

import io.flashsale.adapter.mysql.replica.ReplicaRouting;
import io.flashsale.adapter.mysql.replica.ReplicaSettings;
import io.flashsale.adapter.mysql.replica.RoutedActivityListing;
import io.flashsale.adapter.mysql.replica.RoutedReconciliationReports;
import io.flashsale.adapter.mysql.replica.RoutedRecordedStock;
import io.flashsale.adapter.mysql.replica.RoutedStockAdjustments;
import net.javacrumbs.shedlock.core.LockProvider;
import org.apache.ibatis.annotations.Mapper;
import org.mapstruct.factory.Mappers;
import org.mybatis.spring.annotation.MapperScan;
import org.mybatis.spring.boot.autoconfigure.ConfigurationCustomizer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import javax.sql.DataSource;

/**
 * The MySQL adapter's beans. Relies on Boot's DataSource, transaction manager, MyBatis and Flyway
 * auto-configuration; the mapper XML sits beside its interface and the migrations in db/migration,
 * both where MyBatis and Flyway look by default.
 */
@Configuration(proxyBeanMethods = false)
@MapperScan(basePackageClasses = ActivityDao.class, annotationClass = Mapper.class)
public class MysqlAdapterConfiguration {

    /** Rows built through constructors opened once, not through an exception per row ({@link RowObjectFactory}). */
    @Bean
    static ConfigurationCustomizer rowObjectFactory() {
        return configuration -> configuration.setObjectFactory(new RowObjectFactory());
    }

    /** A database out of reach answers as {@code StoreUnavailableException} from every port of this adapter. */
    @Bean
    static StoreUnavailableTranslation storeUnavailableTranslation() {
        return new StoreUnavailableTranslation();
    }

    @Bean
    ActivityRowMapper activityRowMapper() {
        return Mappers.getMapper(ActivityRowMapper.class);
    }

    @Bean
    MysqlActivityRepository mysqlActivityRepository(ActivityDao activityDao, ActivityRowMapper activityRowMapper,
                                                     PlatformTransactionManager transactionManager) {
        return new MysqlActivityRepository(activityDao, activityRowMapper, new TransactionTemplate(transactionManager));
    }

    /** A sale's pause and window, changed by an operator (ADR 79). */
    @Bean
    MysqlSaleTerms mysqlSaleTerms(ActivityDao activityDao) {
        return new MysqlSaleTerms(activityDao);
    }

    @Bean
    OrderRowMapper orderRowMapper() {
        return Mappers.getMapper(OrderRowMapper.class);
    }

    /**
     * Which clock judges payment deadlines (ADR 0082): {@code database} (the default), one clock for every instance;
     * {@code service} for tests that move the service's clock to reach a deadline.
     */
    @Bean
    DeadlineClock deadlineClock(@Value("${flashsale.payment.deadline-clock:database}") DeadlineClock clock) {
        return clock;
    }

    @Bean
    MysqlOrderRepository mysqlOrderRepository(OrderDao orderDao, OrderRowMapper orderRowMapper,
                                              PlatformTransactionManager transactionManager,
                                              ObjectProvider<MeterRegistry> meters, DeadlineClock deadlineClock) {
        return new MysqlOrderRepository(orderDao, orderRowMapper, new TransactionTemplate(transactionManager),
                new RestoredStock(meters.getIfAvailable(SimpleMeterRegistry::new)), deadlineClock);
    }

    /** Redis outage (ADR 39): reservations decided by the database while the hot store is out. */
    @Bean
    MysqlFallbackReservations mysqlFallbackReservations(OrderDao orderDao, FallbackDao fallbackDao,
                                                        OrderRowMapper orderRowMapper,
                                                        PlatformTransactionManager transactionManager) {
        return new MysqlFallbackReservations(orderDao, fallbackDao, orderRowMapper,
                new TransactionTemplate(transactionManager));
    }

    @Bean
    MysqlRecordedOrders mysqlRecordedOrders(OrderDao orderDao, OrderRowMapper orderRowMapper) {
        return new MysqlRecordedOrders(orderDao, orderRowMapper);
    }

    /** What the order consumer asks before it takes its partitions up again after a database outage (ADR 78). */
    @Bean
    MysqlDatabaseProbe mysqlDatabaseProbe(DataSource dataSource) {
        return new MysqlDatabaseProbe(dataSource);
    }

    @Bean
    MysqlProviderPayments mysqlProviderPayments(PaymentDao paymentDao, DeadlineClock deadlineClock) {
        return new MysqlProviderPayments(paymentDao, deadlineClock);
    }

    @Bean
    MysqlReservationAliases mysqlReservationAliases(OrderDao orderDao) {
        return new MysqlReservationAliases(orderDao);
    }

    @Bean
    MysqlSettledReservations mysqlSettledReservations(SettledReservationsDao settledReservationsDao) {
        return new MysqlSettledReservations(settledReservationsDao);
    }

    @Bean
    MysqlSalesFigures mysqlSalesFigures(SalesFiguresDao salesFiguresDao) {
        return new MysqlSalesFigures(salesFiguresDao);
    }

    @Bean
    MysqlRecordedStock mysqlRecordedStock(ReconciliationFiguresDao reconciliationFiguresDao,
                                          PlatformTransactionManager transactionManager) {
        return new MysqlRecordedStock(reconciliationFiguresDao, snapshotReads(transactionManager));
    }

    private static TransactionTemplate snapshotReads(PlatformTransactionManager transactionManager) {
        TransactionTemplate snapshotReads = new TransactionTemplate(transactionManager);
        snapshotReads.setReadOnly(true);
        snapshotReads.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
        return snapshotReads;
    }

    @Bean
    MysqlStockAdjustments mysqlStockAdjustments(StockAdjustmentDao stockAdjustmentDao,
                                                PlatformTransactionManager transactionManager) {
        return new MysqlStockAdjustments(stockAdjustmentDao, new TransactionTemplate(transactionManager));
    }

    @Bean
    MysqlAdjustmentProposals mysqlAdjustmentProposals(AdjustmentProposalDao adjustmentProposalDao,
                                                      MysqlStockAdjustments mysqlStockAdjustments,
                                                      PlatformTransactionManager transactionManager) {
        return new MysqlAdjustmentProposals(adjustmentProposalDao, mysqlStockAdjustments,
                new TransactionTemplate(transactionManager));
    }

    /** The transfers of stock between a sale's slices (ADR 109); always on the primary. */
    @Bean
    MysqlStockTransfers mysqlStockTransfers(StockTransferDao stockTransferDao,
                                            PlatformTransactionManager transactionManager) {
        return new MysqlStockTransfers(stockTransferDao, Mappers.getMapper(StockTransferRowMapper.class),
                new TransactionTemplate(transactionManager));
    }

    @Bean
    MysqlBlocklist mysqlBlocklist(BlocklistDao blocklistDao, PlatformTransactionManager transactionManager) {
        return new MysqlBlocklist(blocklistDao, new TransactionTemplate(transactionManager));
    }

    @Bean
    MysqlReconciliationReports mysqlReconciliationReports(ReconciliationReportDao reconciliationReportDao) {
        return new MysqlReconciliationReports(reconciliationReportDao);
    }

    /** The read-only replica named by {@link ReplicaSettings} (ADR 86); none when no such bean is defined. */
    @Bean(destroyMethod = "close")
    ReplicaDatabase replicaDatabase(ObjectProvider<ReplicaSettings> settings) {
        return ReplicaDatabase.of(settings.getIfAvailable());
    }

    @Bean
    ReplicaRouting replicaRouting(ReplicaDatabase replica, DataSource primary, ObjectProvider<MeterRegistry> meters) {
        MeterRegistry registry = meters.getIfAvailable(SimpleMeterRegistry::new);
        return replica.present()
                ? ReplicaRouting.between(primary, replica.dataSource(), replica.settings(), registry)
                : ReplicaRouting.primaryOnly(registry);
    }

    /** What reconciliation and rebuilds compute repairs from: the replica only once it caught up with the primary. */
    @Bean
    @Primary
    RoutedRecordedStock routedRecordedStock(MysqlRecordedStock primary, ReplicaDatabase replica,
                                            ReplicaRouting routing) {
        return new RoutedRecordedStock(primary, replica.readsOr(primary, on -> new MysqlRecordedStock(
                on.mapper(ReconciliationFiguresDao.class), snapshotReads(on.transactions()))), routing);
    }

    @Bean
    @Primary
    RoutedReconciliationReports routedReconciliationReports(MysqlReconciliationReports primary,
                                                            ReplicaDatabase replica, ReplicaRouting routing) {
        return new RoutedReconciliationReports(primary, replica.readsOr(primary, on -> new MysqlReconciliationReports(
                on.mapper(ReconciliationReportDao.class))), routing);
    }

    @Bean
    @Primary
    RoutedStockAdjustments routedStockAdjustments(MysqlStockAdjustments primary, ReplicaDatabase replica,
                                                  ReplicaRouting routing) {
        return new RoutedStockAdjustments(primary, replica.readsOr(primary, on -> new MysqlStockAdjustments(
                on.mapper(StockAdjustmentDao.class), new TransactionTemplate(on.transactions()))), routing);
    }

    @Bean
    @Primary
    RoutedActivityListing routedActivityListing(MysqlActivityRepository primary, ReplicaDatabase replica,
                                                ActivityRowMapper activityRowMapper, ReplicaRouting routing) {
        return new RoutedActivityListing(primary, replica.readsOr(primary, on -> new MysqlActivityRepository(
                on.mapper(ActivityDao.class), activityRowMapper, new TransactionTemplate(on.transactions()))), routing);
    }

    /**
     * The scheduled jobs' locks (ShedLock) in {@code job_lock}, timed by the database's clock so that instances whose
     * clocks disagree still never hold one job at once; a taking whose answer was lost is not left to hold the job for
     * minutes ({@link JobLockProvider}).
     */
    @Bean
    LockProvider jobLockProvider(DataSource dataSource) {
        return JobLockProvider.on(dataSource);
    }
}
