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
    FilterRegistrationBean<LogContextFilter> logContextFilter() {
        FilterRegistrationBean<LogContextFilter> registration = new FilterRegistrationBean<>(new LogContextFilter());
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }
}
