package io.flashsale.adapter.mysql;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * The adapter as bootstrap uses it: Boot's auto-configuration plus the adapter's own configuration, and a registry
 * for the adapter's meters (bootstrap's is the actuator's).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(MysqlAdapterConfiguration.class)
class MysqlAdapterTestApplication {

    @Bean
    MeterRegistry meterRegistry() {
        return new SimpleMeterRegistry();
    }
}
