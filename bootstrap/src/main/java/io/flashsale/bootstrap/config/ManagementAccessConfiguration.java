package io.flashsale.bootstrap.config;

import io.flashsale.adapter.web.CompleteProblemWriter;
import io.flashsale.adapter.web.security.AdminGate;
import io.flashsale.adapter.web.security.ManagementAccessFilter;
import io.flashsale.adapter.web.security.TrustedProxies;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;

/**
 * The admin token in front of the actuator, in whichever context serves it: the child context of
 * {@code management.server.port} (the configured case), or the main one if that port is ever set to the server's.
 * Listed in {@code META-INF/spring/...ManagementContextConfiguration.imports}, which imports it into that context
 * (an unannotated class counts as "any context"); it carries no stereotype so that the application's component scan
 * does not also put it in the main context.
 */
public class ManagementAccessConfiguration {

    @Bean
    FilterRegistrationBean<ManagementAccessFilter> managementAccessFilter(
            AdminGate gate, CompleteProblemWriter problems,
            @Value("${management.endpoints.web.base-path:/actuator}") String basePath) {
        var registration = new FilterRegistrationBean<>(new ManagementAccessFilter(gate, problems, basePath));
        registration.addUrlPatterns(basePath, basePath + "/*");
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }

    /**
     * The management server gets Boot's Tomcat customizer of its own, and with it a RemoteIpValve that trusts every
     * private range: narrowed here as on the buyers' port, so a forwarded header cannot rotate the address that
     * failed admin attempts are counted by.
     */
    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> managementTrustedProxiesOnly(HttpLimitsProperties http) {
        return new TrustedProxiesCustomizer(
                TrustedProxies.of(HttpLimitsProperties.TRUSTED_PROXIES, http.trustedProxies()), false);
    }
}
