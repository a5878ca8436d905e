package io.flashsale.bootstrap;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import io.flashsale.adapter.kafka.archfixture.KafkaAdapterUsingService;
import io.flashsale.adapter.metrics.archfixture.DeadLetterRetryListener;
import io.flashsale.adapter.mysql.archfixture.MysqlAdapterPart;
import io.flashsale.adapter.redis.archfixture.RedisAdapterStartingItsOwnServer;
import io.flashsale.adapter.redis.archfixture.RedisAdapterUsingMysqlAdapter;
import io.flashsale.adapter.redis.archfixture.RedisAdapterUsingTheReference;
import io.flashsale.adapter.redis.archfixture.RedisAdapterUsingTheWebStack;
import io.flashsale.adapter.redis.archfixture.RedisAdapterWithItsOwnBreaker;
import io.flashsale.application.archfixture.ApplicationDiscoveringARole;
import io.flashsale.application.archfixture.ApplicationUsingLettuce;
import io.flashsale.application.archfixture.StockCounter;
import io.flashsale.application.order.port.out.archfixture.OrderArchive;
import io.flashsale.application.order.service.archfixture.OrderServiceUsingAdmission;
import io.flashsale.application.reference.archfixture.ReferenceStore;
import io.flashsale.application.sale.model.archfixture.PriceSource;
import io.flashsale.application.sale.port.in.archfixture.ReservationFinder;
import io.flashsale.application.sale.port.in.archfixture.SaleQuery;
import io.flashsale.application.service.archfixture.FlatService;
import io.flashsale.bootstrap.archfixture.BootstrapUsingJdbc;
import io.flashsale.bootstrap.archfixture.BootstrapUsingKafka;
import io.flashsale.bootstrap.archfixture.BootstrapUsingPersistence;
import io.flashsale.bootstrap.archfixture.BootstrapUsingTheBroker;
import io.flashsale.bootstrap.config.archfixture.CheckoutRounding;
import io.flashsale.bootstrap.config.archfixture.WiringUsingLettuce;
import io.flashsale.domain.archfixture.DomainUsingApplication;
import io.flashsale.domain.archfixture.DomainUsingSpring;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Each rule, run over the product plus one class that breaks it, must name that class. */
class ArchitectureRulesTest {

    private static final JavaClasses PRODUCT_WITH_VIOLATIONS = new ClassFileImporter()
            .withImportOption(new ArchitectureRules.ExcludeTestSupport())
            .withImportOption(location -> !ImportOption.Predefined.ONLY_INCLUDE_TESTS.includes(location)
                    || location.contains("/archfixture/"))
            .importPackages("io.flashsale");

    @Test
    void domainRuleCatchesSpringInTheDomain() {
        assertCaught(ArchitectureRules.DOMAIN_DEPENDS_ONLY_ON_THE_JDK, DomainUsingSpring.class);
    }

    @Test
    void applicationRuleCatchesLettuceInTheApplication() {
        assertCaught(ArchitectureRules.APPLICATION_DEPENDS_ONLY_ON_THE_JDK_AND_THE_DOMAIN, ApplicationUsingLettuce.class);
    }

    @Test
    void coreRuleCatchesSpringInTheDomain() {
        assertCaught(ArchitectureRules.CORE_DOES_NOT_USE_SPRING, DomainUsingSpring.class);
    }

    @Test
    void adapterSliceRuleCatchesOneAdapterUsingAnother() {
        assertCaught(ArchitectureRules.ADAPTERS_DO_NOT_DEPEND_ON_EACH_OTHER, RedisAdapterUsingMysqlAdapter.class);
    }

    @Test
    void adapterRuleCatchesAnAdapterUsingAService() {
        assertCaught(ArchitectureRules.ADAPTERS_DO_NOT_USE_APPLICATION_SERVICES, KafkaAdapterUsingService.class);
    }

    @Test
    void bootstrapRuleCatchesAnAdapterUsingBootstrap() {
        assertCaught(ArchitectureRules.NOTHING_DEPENDS_ON_BOOTSTRAP, MysqlAdapterPart.class);
    }

    @Test
    void lettuceRuleCatchesLettuceOutsideTheRedisAdapter() {
        assertCaught(ArchitectureRules.LETTUCE_ONLY_IN_THE_REDIS_ADAPTER, ApplicationUsingLettuce.class);
    }

    @Test
    void lettuceRuleCatchesLettuceInBootstrapsWiring() {
        assertCaught(ArchitectureRules.LETTUCE_ONLY_IN_THE_REDIS_ADAPTER, WiringUsingLettuce.class);
    }

    @Test
    void resilience4jRuleCatchesABreakerOutsideTheOutageAdapter() {
        assertCaught(ArchitectureRules.RESILIENCE4J_ONLY_IN_THE_OUTAGE_ADAPTER_AND_BOOTSTRAP,
                RedisAdapterWithItsOwnBreaker.class);
    }

    @Test
    void kafkaRuleCatchesKafkaOutsideTheKafkaAdapter() {
        assertCaught(ArchitectureRules.KAFKA_ONLY_IN_THE_KAFKA_ADAPTER, BootstrapUsingKafka.class);
    }

    @Test
    void kafkaRuleCatchesASpringKafkaRetryListenerInTheMetricsAdapter() {
        assertCaught(ArchitectureRules.KAFKA_ONLY_IN_THE_KAFKA_ADAPTER, DeadLetterRetryListener.class);
    }

    @Test
    void jdbcRuleCatchesJdbcOutsideTheMysqlAdapter() {
        assertCaught(ArchitectureRules.MYBATIS_AND_JDBC_ONLY_IN_THE_MYSQL_ADAPTER, BootstrapUsingJdbc.class);
    }

    @Test
    void kafkaRuleCatchesTheBrokersOwnClassesOutsideTheKafkaAdapter() {
        assertCaught(ArchitectureRules.KAFKA_ONLY_IN_THE_KAFKA_ADAPTER, BootstrapUsingTheBroker.class);
    }

    @Test
    void jdbcRuleCatchesEveryPartOfThePersistenceStackOutsideTheMysqlAdapter() {
        for (Class<?> offender : BootstrapUsingPersistence.class.getDeclaredClasses()) {
            assertCaught(ArchitectureRules.MYBATIS_AND_JDBC_ONLY_IN_THE_MYSQL_ADAPTER, offender);
        }
        assertThat(BootstrapUsingPersistence.class.getDeclaredClasses()).hasSize(6);
    }

    @Test
    void webRuleCatchesSpringWebServletsAndTomcatOutsideTheWebAdapterAndBootstrap() {
        for (Class<?> offender : new Class<?>[] {RedisAdapterUsingTheWebStack.UsingSpringWeb.class,
                RedisAdapterUsingTheWebStack.UsingSpringWebMvc.class, RedisAdapterUsingTheWebStack.UsingTheServletApi.class,
                RedisAdapterUsingTheWebStack.UsingTomcat.class}) {
            assertCaught(ArchitectureRules.WEB_STACK_ONLY_IN_THE_WEB_ADAPTER_AND_BOOTSTRAP, offender);
        }
    }

    @Test
    void jacksonRuleCatchesJacksonInTheRedisAdapter() {
        assertCaught(ArchitectureRules.JACKSON_ONLY_IN_THE_WEB_ADAPTER_BOOTSTRAP_AND_THE_MESSAGE_CODEC,
                RedisAdapterUsingTheWebStack.UsingJackson.class);
    }

    @Test
    void embeddedServersRuleCatchesAnAdapterStartingAPackagedServer() {
        assertCaught(ArchitectureRules.EMBEDDED_SERVERS_ONLY_THROUGH_BOOTSTRAP, RedisAdapterStartingItsOwnServer.class);
    }

    @Test
    void referenceRuleCatchesAnAdapterUsingTheInMemoryReference() {
        assertCaught(ArchitectureRules.ADAPTERS_DO_NOT_USE_THE_REFERENCE, RedisAdapterUsingTheReference.class);
    }

    @Test
    void inPortRuleCatchesAnInPortNotNamedUseCase() {
        assertCaught(ArchitectureRules.IN_PORTS_ARE_USE_CASES, ReservationFinder.class);
    }

    @Test
    void inPortRuleCatchesAValueInPortIn() {
        assertCaught(ArchitectureRules.IN_PORTS_ARE_USE_CASES, SaleQuery.class);
    }

    @Test
    void capabilityRuleCatchesAClassInTheFlatServicePackage() {
        assertCaught(ArchitectureRules.APPLICATION_IS_GROUPED_BY_CAPABILITY, FlatService.class);
    }

    @Test
    void capabilityRuleCatchesTheReferenceStoreInTheProduct() {
        assertCaught(ArchitectureRules.APPLICATION_IS_GROUPED_BY_CAPABILITY, ReferenceStore.class);
    }

    @Test
    void serviceRuleCatchesAServiceUsingAnotherCapabilitysService() {
        assertCaught(ArchitectureRules.CAPABILITIES_DO_NOT_REACH_INTO_ANOTHERS_SERVICES, OrderServiceUsingAdmission.class);
    }

    @Test
    void outPortRuleCatchesAPortInAModel() {
        assertCaught(ArchitectureRules.OUT_PORTS_LIVE_IN_PORT_OUT, PriceSource.class);
    }

    @Test
    void outPortRuleCatchesAPortOutsidePortOut() {
        assertCaught(ArchitectureRules.OUT_PORTS_LIVE_IN_PORT_OUT, StockCounter.class);
    }

    @Test
    void outPortNamingRuleCatchesAnOutPortNotNamedPort() {
        assertCaught(ArchitectureRules.OUT_PORTS_ARE_NAMED_PORT, OrderArchive.class);
    }

    @Test
    void portDiscoveryRuleCatchesAnInstanceofOnAnOutPort() {
        assertCaught(ArchitectureRules.CORE_AND_WIRING_DO_NOT_DISCOVER_PORTS, ApplicationDiscoveringARole.class);
    }

    @Test
    void wiringRuleCatchesBehaviourInBootstrap() {
        assertCaught(ArchitectureRules.BOOTSTRAP_IS_WIRING, CheckoutRounding.class);
    }

    @Test
    void wiringRuleCatchesAClassNestedInAConfigurationThatIsNotOneOfItsValues() {
        assertCaught(ArchitectureRules.BOOTSTRAP_IS_WIRING, CheckoutRounding.Wiring.Rounder.class);
    }

    @Test
    void layerRuleCatchesTheDomainReachingIntoTheApplication() {
        assertCaught(ArchitectureRules.LAYERS, DomainUsingApplication.class);
    }

    @Test
    void layerRuleCatchesAnAdapterReachingIntoBootstrap() {
        assertCaught(ArchitectureRules.LAYERS, MysqlAdapterPart.class);
    }

    private static void assertCaught(ArchRule rule, Class<?> offender) {
        EvaluationResult result = rule.evaluate(PRODUCT_WITH_VIOLATIONS);

        assertThat(result.hasViolation()).as(rule.getDescription()).isTrue();
        assertThat(result.getFailureReport().getDetails())
                .as(rule.getDescription())
                .anyMatch(line -> line.contains(offender.getName()));
    }
}
