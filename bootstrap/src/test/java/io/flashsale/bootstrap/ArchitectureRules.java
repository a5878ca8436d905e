package io.flashsale.bootstrap;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.InstanceofCheck;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import io.flashsale.bootstrap.kafka.EmbeddedKafkaLauncher;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.AnnotatedElementUtils;

import java.util.Arrays;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The dependency rules of the hexagon, in stock ArchUnit. Every rule refuses to pass on an empty
 * selection, and {@code ArchitectureRulesTest} shows each one failing on a class that breaks it.
 */
final class ArchitectureRules {

    static final String DOMAIN = "io.flashsale.domain..";
    static final String APPLICATION = "io.flashsale.application..";
    private static final String APPLICATION_ROOT = "io.flashsale.application.";
    static final String ADAPTERS = "io.flashsale.adapter..";
    static final String REDIS_ADAPTER = "io.flashsale.adapter.redis..";
    static final String KAFKA_ADAPTER = "io.flashsale.adapter.kafka..";
    static final String MYSQL_ADAPTER = "io.flashsale.adapter.mysql..";
    static final String WEB_ADAPTER = "io.flashsale.adapter.web..";
    static final String OUTAGE_ADAPTER = "io.flashsale.adapter.outage..";
    static final String BOOTSTRAP = "io.flashsale.bootstrap..";
    /** The application is grouped by capability (ADR 95): {@code io.flashsale.application.<capability>.<part>}. */
    static final String IN_PORTS = "io.flashsale.application.*.port.in..";
    static final String OUT_PORTS = "io.flashsale.application.*.port.out..";
    static final String MODELS = "io.flashsale.application.*.model..";
    static final String SERVICES = "io.flashsale.application.*.service..";
    static final String[] KAFKA_PACKAGES = {"org.apache.kafka..", "org.springframework.kafka..", "kafka.."};
    static final String[] JDBC_PACKAGES = {"org.apache.ibatis..", "org.mybatis..", "java.sql..", "javax.sql..",
        "com.zaxxer.hikari..", "com.mysql..", "org.flywaydb..", "org.springframework.jdbc..",
        "org.springframework.transaction..", "net.javacrumbs.shedlock.provider.."};
    static final String[] WEB_PACKAGES = {"org.springframework.web..", "org.springframework.http..",
        "jakarta.servlet..", "org.apache.catalina..", "org.apache.tomcat..", "org.apache.coyote.."};
    static final String[] JACKSON_PACKAGES = {"tools.jackson..", "com.fasterxml.jackson.."};

    static final ArchRule DOMAIN_DEPENDS_ONLY_ON_THE_JDK = classes()
            .that().resideInAPackage(DOMAIN)
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", DOMAIN)
            .allowEmptyShould(false);

    static final ArchRule APPLICATION_DEPENDS_ONLY_ON_THE_JDK_AND_THE_DOMAIN = classes()
            .that().resideInAPackage(APPLICATION)
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", DOMAIN, APPLICATION)
            .allowEmptyShould(false);

    static final ArchRule CORE_DOES_NOT_USE_SPRING = noClasses()
            .that().resideInAnyPackage(DOMAIN, APPLICATION)
            .should().dependOnClassesThat().resideInAPackage("org.springframework..")
            .allowEmptyShould(false);

    static final ArchRule ADAPTERS_DO_NOT_DEPEND_ON_EACH_OTHER = slices()
            .matching("io.flashsale.adapter.(*)..")
            .should().notDependOnEachOther()
            .allowEmptyShould(false);

    static final ArchRule ADAPTERS_DO_NOT_USE_APPLICATION_SERVICES = noClasses()
            .that().resideInAPackage(ADAPTERS)
            .should().dependOnClassesThat().resideInAPackage(SERVICES)
            .allowEmptyShould(false);

    static final ArchRule NOTHING_DEPENDS_ON_BOOTSTRAP = noClasses()
            .that().resideOutsideOfPackage(BOOTSTRAP)
            .should().dependOnClassesThat().resideInAPackage(BOOTSTRAP)
            .allowEmptyShould(false);

    static final ArchRule LETTUCE_ONLY_IN_THE_REDIS_ADAPTER = noClasses()
            .that().resideOutsideOfPackage(REDIS_ADAPTER)
            .should().dependOnClassesThat().resideInAPackage("io.lettuce..")
            .allowEmptyShould(false);

    /**
     * The breaker and the bulkhead are the outage adapter's (ADR 0090); bootstrap only builds them with their figures.
     * The hot store's own adapter knows nothing of its outages: what happens when Redis goes down is in one module.
     */
    static final ArchRule RESILIENCE4J_ONLY_IN_THE_OUTAGE_ADAPTER_AND_BOOTSTRAP = noClasses()
            .that().resideOutsideOfPackages(OUTAGE_ADAPTER, BOOTSTRAP)
            .should().dependOnClassesThat().resideInAPackage("io.github.resilience4j..")
            .allowEmptyShould(false);

    /**
     * No exception: the Kafka adapter reports dead letters through the application's metrics port, and bootstrap's
     * broker launcher uses only the adapter's own broker classes.
     */
    static final ArchRule KAFKA_ONLY_IN_THE_KAFKA_ADAPTER = noClasses()
            .that().resideOutsideOfPackage(KAFKA_ADAPTER)
            .should().dependOnClassesThat().resideInAnyPackage(KAFKA_PACKAGES)
            .allowEmptyShould(false);

    static final ArchRule MYBATIS_AND_JDBC_ONLY_IN_THE_MYSQL_ADAPTER = noClasses()
            .that().resideOutsideOfPackage(MYSQL_ADAPTER)
            .should().dependOnClassesThat()
            .resideInAnyPackage(JDBC_PACKAGES)
            .allowEmptyShould(false);

    static final ArchRule WEB_STACK_ONLY_IN_THE_WEB_ADAPTER_AND_BOOTSTRAP = noClasses()
            .that().resideOutsideOfPackages(WEB_ADAPTER, BOOTSTRAP)
            .should().dependOnClassesThat().resideInAnyPackage(WEB_PACKAGES)
            .allowEmptyShould(false);

    /**
     * One exception to "Jackson only in adapter-web and bootstrap": the Kafka adapter's message codec, because the
     * messages on the topic are JSON (ADR 0022).
     */
    static final ArchRule JACKSON_ONLY_IN_THE_WEB_ADAPTER_BOOTSTRAP_AND_THE_MESSAGE_CODEC = noClasses()
            .that().resideOutsideOfPackages(WEB_ADAPTER, BOOTSTRAP, KAFKA_ADAPTER)
            .should().dependOnClassesThat().resideInAnyPackage(JACKSON_PACKAGES)
            .allowEmptyShould(false);

    /** Demo mode's packaged servers: started by bootstrap's launcher only, never by the core or an adapter. */
    static final ArchRule EMBEDDED_SERVERS_ONLY_THROUGH_BOOTSTRAP = noClasses()
            .that().resideInAnyPackage(DOMAIN, APPLICATION, ADAPTERS)
            .should().dependOnClassesThat().resideInAnyPackage("io.flashsale.embedded..", "redis.embedded..",
                    "ch.vorburger..")
            .allowEmptyShould(false);

    static final ArchRule ADAPTERS_DO_NOT_USE_THE_REFERENCE = noClasses()
            .that().resideInAPackage(ADAPTERS)
            .should().dependOnClassesThat().resideInAPackage("io.flashsale.application.reference..")
            .because("the in-memory reference referees the Redis scripts in tests; it is not a store to run on")
            .allowEmptyShould(false);

    static final ArchRule IN_PORTS_ARE_USE_CASES = classes()
            .that().resideInAPackage(IN_PORTS)
            .should().beInterfaces().andShould().haveSimpleNameEndingWith("UseCase")
            .because("a capability's port.in is the list of its use cases; the commands, results, views and exceptions "
                    + "they exchange are in its model package")
            .allowEmptyShould(false);

    /**
     * Every application class sits in a capability's port.in, port.out, model or service package (ADR 95), or in
     * shared.id; none in the flat service and port packages of before, and the in-memory reference store not at all
     * (it is in application's test-jar).
     */
    static final ArchRule APPLICATION_IS_GROUPED_BY_CAPABILITY = classes()
            .that().resideInAPackage(APPLICATION)
            .should().resideInAnyPackage(IN_PORTS, OUT_PORTS, MODELS, SERVICES, "io.flashsale.application.shared.id..")
            .allowEmptyShould(false);

    /**
     * A capability uses another one through its use cases, ports and model, never through its services: those are
     * wired by bootstrap, and what two capabilities share is a port or a value, not a helper class.
     */
    static final ArchRule CAPABILITIES_DO_NOT_REACH_INTO_ANOTHERS_SERVICES = classes()
            .that().resideInAPackage(APPLICATION)
            .should(notUseAnotherCapabilitysServices())
            .allowEmptyShould(false);

    /**
     * One name style for out-ports (ADR 94): an interface an adapter implements for the application ends in Port.
     * Sealed interfaces in port.out are the ports' result types; ...Listener ones are the callbacks an adapter makes
     * into the application.
     */
    static final ArchRule OUT_PORTS_ARE_NAMED_PORT = classes()
            .that().resideInAPackage(OUT_PORTS).and().areInterfaces()
            .and(areNotSealed()).and().haveSimpleNameNotEndingWith("Listener")
            .should().haveSimpleNameEndingWith("Port")
            .because("a reader of port.out tells the contracts an adapter implements from the values they exchange "
                    + "by the name alone")
            .allowEmptyShould(false);

    /** Sealed interfaces are result types, in a model or beside the port that returns them. */
    static final ArchRule OUT_PORTS_LIVE_IN_PORT_OUT = classes()
            .that().resideInAPackage(APPLICATION).and().areInterfaces().and(areNotSealed())
            .and().resideOutsideOfPackage(IN_PORTS)
            .should().resideInAPackage(OUT_PORTS)
            .allowEmptyShould(false);

    /**
     * A service is handed each role of a store as a port of its own (a null object such as
     * {@code RelayedEventsPort.NONE} when the store has none) instead of testing one port for another. Sealed
     * interfaces in port.out are result types, matched by design.
     */
    static final ArchRule CORE_AND_WIRING_DO_NOT_DISCOVER_PORTS = classes()
            .that().resideInAnyPackage(APPLICATION, BOOTSTRAP)
            .should(notCheckInstanceofOnAnOutPort())
            .allowEmptyShould(false);

    /**
     * Behaviour lives beside what it serves (an adapter, or a use case when it decides business outcomes); bootstrap
     * keeps what Spring needs to start and wire them (ADR 0092). The records and enums nested in a properties class
     * are its values; {@code PositiveDurations} is the properties' start-up check.
     */
    static final ArchRule BOOTSTRAP_IS_WIRING = classes()
            .that().resideInAPackage(BOOTSTRAP)
            .should(beWiring())
            .allowEmptyShould(false);

    static final ArchRule LAYERS = layeredArchitecture()
            .consideringOnlyDependenciesInLayers()
            .layer("Domain").definedBy(DOMAIN)
            .layer("Application").definedBy(APPLICATION)
            .layer("Adapters").definedBy(ADAPTERS)
            .layer("Bootstrap").definedBy(BOOTSTRAP)
            .whereLayer("Bootstrap").mayNotBeAccessedByAnyLayer()
            .whereLayer("Adapters").mayOnlyBeAccessedByLayers("Bootstrap")
            .whereLayer("Application").mayOnlyBeAccessedByLayers("Adapters", "Bootstrap")
            .whereLayer("Domain").mayOnlyBeAccessedByLayers("Application", "Adapters", "Bootstrap")
            .allowEmptyShould(false);

    private ArchitectureRules() {
    }

    private static ArchCondition<JavaClass> notCheckInstanceofOnAnOutPort() {
        return new ArchCondition<>("not check instanceof on an out-port") {
            @Override
            public void check(JavaClass javaClass, ConditionEvents events) {
                for (JavaCodeUnit unit : javaClass.getCodeUnits()) {
                    for (InstanceofCheck check : unit.getInstanceofChecks()) {
                        JavaClass type = check.getRawType();
                        if (type.getPackageName().matches("io\\.flashsale\\.application\\.\\w+\\.port\\.out(\\..+)?") && type.isInterface()
                                && !type.reflect().isSealed()) {
                            events.add(SimpleConditionEvent.violated(javaClass, unit.getFullName()
                                    + " checks instanceof " + type.getName() + " " + check.getSourceCodeLocation()));
                        }
                    }
                }
            }
        };
    }

    private static ArchCondition<JavaClass> notUseAnotherCapabilitysServices() {
        return new ArchCondition<>("not use another capability's services") {
            @Override
            public void check(JavaClass javaClass, ConditionEvents events) {
                String own = capability(javaClass);
                for (Dependency dependency : javaClass.getDirectDependenciesFromSelf()) {
                    JavaClass target = dependency.getTargetClass();
                    if (target.getPackageName().startsWith(APPLICATION_ROOT) && !capability(target).equals(own)
                            && target.getPackageName().matches("io\\.flashsale\\.application\\.\\w+\\.service(\\..+)?")) {
                        events.add(SimpleConditionEvent.violated(javaClass, dependency.getDescription()));
                    }
                }
            }
        };
    }

    /** The package part right after {@code io.flashsale.application}: sale, order, reconciliation, ... */
    private static String capability(JavaClass javaClass) {
        String name = javaClass.getPackageName();
        return name.startsWith(APPLICATION_ROOT) ? name.substring(APPLICATION_ROOT.length()).split("\\.")[0] : "";
    }

    private static ArchCondition<JavaClass> beWiring() {
        return new ArchCondition<>("be a @Configuration class, configuration properties, a health indicator, a web"
                + " server customizer, the Spring Boot main class or an embedded-server launcher") {
            @Override
            public void check(JavaClass javaClass, ConditionEvents events) {
                if (!isWiring(javaClass.reflect())) {
                    events.add(SimpleConditionEvent.violated(javaClass, javaClass.getName()
                            + " holds behaviour: move it beside the adapter or use case it serves "
                            + javaClass.getSourceCodeLocation()));
                }
            }
        };
    }

    /** Read by reflection: Spring's annotations and supertypes are not among the imported classes. */
    private static boolean isWiring(Class<?> type) {
        Class<?> enclosing = type.getEnclosingClass();
        // A record, enum or anonymous class nested in a wiring class is part of it (a properties class's values);
        // any other nested class is judged as a class of its own.
        if (enclosing != null && (type.isRecord() || type.isEnum() || type.isAnonymousClass()) && isWiring(enclosing)) {
            return true;
        }
        return AnnotatedElementUtils.hasAnnotation(type, Configuration.class)
                || Arrays.stream(type.getDeclaredMethods()).anyMatch(method -> method.isAnnotationPresent(Bean.class))
                || type.isAnnotationPresent(ConfigurationProperties.class)
                // bound by a launcher's Binder before the context exists, as EmbeddedKafkaProperties is
                || type.isRecord() && type.getSimpleName().endsWith("Properties")
                || HealthIndicator.class.isAssignableFrom(type)
                || WebServerFactoryCustomizer.class.isAssignableFrom(type)
                || type.getPackageName().startsWith("io.flashsale.bootstrap.embedded")
                || type == EmbeddedKafkaLauncher.class
                || type.getName().equals("io.flashsale.bootstrap.config.PositiveDurations");
    }

    private static DescribedPredicate<JavaClass> areNotSealed() {
        return DescribedPredicate.describe("are not sealed", javaClass -> !javaClass.reflect().isSealed());
    }

    /** Test infrastructure (Testcontainers, JDBC for test databases) is not part of the product. */
    static final class ExcludeTestSupport implements ImportOption {

        @Override
        public boolean includes(Location location) {
            return !location.contains("/io/flashsale/testsupport/");
        }
    }
}
