package io.flashsale.bootstrap.embedded;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;

/** Registers {@link DemoModeLauncher}. */
@Configuration(proxyBeanMethods = false)
public class DemoModeConfiguration {

    /** Static: a bean factory post-processor must exist before the configuration class itself. */
    @Bean
    static DemoModeLauncher demoModeLauncher(ConfigurableEnvironment environment) {
        return new DemoModeLauncher(environment);
    }
}
