package io.flashsale.adapter.mysql;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.flashsale.adapter.mysql.replica.ReplicaSettings;
import org.apache.ibatis.mapping.Environment;
import org.apache.ibatis.session.Configuration;
import org.apache.ibatis.session.SqlSessionFactory;
import org.apache.ibatis.session.SqlSessionFactoryBuilder;
import org.mybatis.spring.SqlSessionTemplate;
import org.mybatis.spring.transaction.SpringManagedTransactionFactory;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;

import javax.sql.DataSource;
import java.util.function.Function;

/**
 * The read-only replica's pool and its own MyBatis session factory, with the mappers of the reads it may serve (ADR 86).
 * Neither is a bean: Boot's DataSource and MyBatis auto-configuration stay the primary's. A replica that cannot be
 * reached at start does not stop the service; its reads go to the primary until it answers.
 */
final class ReplicaDatabase implements AutoCloseable {

    /** The mappers whose reads the replica may serve. */
    private static final Class<?>[] READ_MAPPERS = {ActivityDao.class, ReconciliationFiguresDao.class,
            ReconciliationReportDao.class, StockAdjustmentDao.class};

    private static final ReplicaDatabase NONE = new ReplicaDatabase(null, null, null, null);

    private final ReplicaSettings settings;
    private final HikariDataSource dataSource;
    private final SqlSessionTemplate sessions;
    private final PlatformTransactionManager transactions;

    private ReplicaDatabase(ReplicaSettings settings, HikariDataSource dataSource, SqlSessionTemplate sessions,
                            PlatformTransactionManager transactions) {
        this.settings = settings;
        this.dataSource = dataSource;
        this.sessions = sessions;
        this.transactions = transactions;
    }

    /** The replica {@code settings} name; none when they are null. */
    static ReplicaDatabase of(ReplicaSettings settings) {
        if (settings == null) {
            return NONE;
        }
        HikariConfig pool = new HikariConfig();
        pool.setPoolName("flashsale-replica");
        pool.setJdbcUrl(settings.url());
        pool.setUsername(settings.username());
        pool.setPassword(settings.password());
        pool.setReadOnly(true);
        pool.setMaximumPoolSize(4);
        pool.setMinimumIdle(1);
        pool.setConnectionTimeout(2_000);
        // Start without the replica: the routing finds it unreadable and reads the primary.
        pool.setInitializationFailTimeout(-1);
        HikariDataSource dataSource = new HikariDataSource(pool);
        Configuration configuration = new Configuration(
                new Environment("replica", new SpringManagedTransactionFactory(), dataSource));
        configuration.setObjectFactory(new RowObjectFactory());
        for (Class<?> mapper : READ_MAPPERS) {
            configuration.addMapper(mapper);
        }
        SqlSessionFactory factory = new SqlSessionFactoryBuilder().build(configuration);
        return new ReplicaDatabase(settings, dataSource, new SqlSessionTemplate(factory),
                new DataSourceTransactionManager(dataSource));
    }

    boolean present() {
        return dataSource != null;
    }

    ReplicaSettings settings() {
        return settings;
    }

    DataSource dataSource() {
        return dataSource;
    }

    /** {@code build} applied to this replica, or {@code onPrimary} when there is none. */
    <P> P readsOr(P onPrimary, Function<ReplicaDatabase, ? extends P> build) {
        return present() ? build.apply(this) : onPrimary;
    }

    <T> T mapper(Class<T> type) {
        return sessions.getMapper(type);
    }

    PlatformTransactionManager transactions() {
        return transactions;
    }

    @Override
    public void close() {
        if (dataSource != null) {
            dataSource.close();
        }
    }
}
