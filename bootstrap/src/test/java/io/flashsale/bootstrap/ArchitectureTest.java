package io.flashsale.bootstrap;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The product's classes, every module, without tests: the hexagon's rules hold. */
@AnalyzeClasses(packages = "io.flashsale",
        importOptions = {ImportOption.DoNotIncludeTests.class, ArchitectureRules.ExcludeTestSupport.class})
class ArchitectureTest {

    @ArchTest
    static final ArchRule domain_depends_only_on_the_jdk = ArchitectureRules.DOMAIN_DEPENDS_ONLY_ON_THE_JDK;

    @ArchTest
    static final ArchRule application_depends_only_on_the_jdk_and_the_domain =
            ArchitectureRules.APPLICATION_DEPENDS_ONLY_ON_THE_JDK_AND_THE_DOMAIN;

    @ArchTest
    static final ArchRule core_does_not_use_spring = ArchitectureRules.CORE_DOES_NOT_USE_SPRING;

    @ArchTest
    static final ArchRule adapters_do_not_depend_on_each_other = ArchitectureRules.ADAPTERS_DO_NOT_DEPEND_ON_EACH_OTHER;

    @ArchTest
    static final ArchRule adapters_do_not_use_application_services =
            ArchitectureRules.ADAPTERS_DO_NOT_USE_APPLICATION_SERVICES;

    @ArchTest
    static final ArchRule nothing_depends_on_bootstrap = ArchitectureRules.NOTHING_DEPENDS_ON_BOOTSTRAP;

    @ArchTest
    static final ArchRule embedded_servers_only_through_bootstrap = ArchitectureRules.EMBEDDED_SERVERS_ONLY_THROUGH_BOOTSTRAP;

    @ArchTest
    static final ArchRule lettuce_only_in_the_redis_adapter = ArchitectureRules.LETTUCE_ONLY_IN_THE_REDIS_ADAPTER;

    @ArchTest
    static final ArchRule resilience4j_only_in_the_outage_adapter_and_bootstrap =
            ArchitectureRules.RESILIENCE4J_ONLY_IN_THE_OUTAGE_ADAPTER_AND_BOOTSTRAP;

    @ArchTest
    static final ArchRule kafka_only_in_the_kafka_adapter = ArchitectureRules.KAFKA_ONLY_IN_THE_KAFKA_ADAPTER;

    @ArchTest
    static final ArchRule mybatis_and_jdbc_only_in_the_mysql_adapter =
            ArchitectureRules.MYBATIS_AND_JDBC_ONLY_IN_THE_MYSQL_ADAPTER;

    @ArchTest
    static final ArchRule web_stack_only_in_the_web_adapter_and_bootstrap =
            ArchitectureRules.WEB_STACK_ONLY_IN_THE_WEB_ADAPTER_AND_BOOTSTRAP;

    @ArchTest
    static final ArchRule jackson_only_in_the_web_adapter_bootstrap_and_the_message_codec =
            ArchitectureRules.JACKSON_ONLY_IN_THE_WEB_ADAPTER_BOOTSTRAP_AND_THE_MESSAGE_CODEC;

    @ArchTest
    static final ArchRule adapters_do_not_use_the_reference = ArchitectureRules.ADAPTERS_DO_NOT_USE_THE_REFERENCE;

    @ArchTest
    static final ArchRule in_ports_are_use_cases = ArchitectureRules.IN_PORTS_ARE_USE_CASES;

    @ArchTest
    static final ArchRule application_is_grouped_by_capability = ArchitectureRules.APPLICATION_IS_GROUPED_BY_CAPABILITY;

    @ArchTest
    static final ArchRule capabilities_do_not_reach_into_anothers_services =
            ArchitectureRules.CAPABILITIES_DO_NOT_REACH_INTO_ANOTHERS_SERVICES;

    @ArchTest
    static final ArchRule out_ports_live_in_port_out = ArchitectureRules.OUT_PORTS_LIVE_IN_PORT_OUT;

    @ArchTest
    static final ArchRule out_ports_are_named_port = ArchitectureRules.OUT_PORTS_ARE_NAMED_PORT;

    @ArchTest
    static final ArchRule core_and_wiring_do_not_discover_ports = ArchitectureRules.CORE_AND_WIRING_DO_NOT_DISCOVER_PORTS;

    /** Behaviour lives in the adapters and the application; bootstrap only builds and wires it (ADR 92). */
    @ArchTest
    static final ArchRule bootstrap_is_wiring = ArchitectureRules.BOOTSTRAP_IS_WIRING;

    @ArchTest
    static final ArchRule layers = ArchitectureRules.LAYERS;
}
