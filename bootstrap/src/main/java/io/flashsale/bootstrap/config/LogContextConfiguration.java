package io.flashsale.bootstrap.config;

import io.flashsale.adapter.web.logging.LogContextFilter;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/** The request's ids in the MDC before any other filter runs, so every line of the request carries them. */
@Configuration(proxyBeanMethods = false)
public class LogContextConfiguration {

    @Bean
    FilterRegistrationBean<LogContextFilter> logContextFilter(BuyerIdentityProperties buyers) {
        FilterRegistrationBean<LogContextFilter> registration = new FilterRegistrationBean<>(
                new LogContextFilter(buyers.buyerAuth() == BuyerIdentityProperties.BuyerAuth.TRUSTED_HEADER));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }
}
