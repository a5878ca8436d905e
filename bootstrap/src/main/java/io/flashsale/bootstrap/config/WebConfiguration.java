package io.flashsale.bootstrap.config;

import io.flashsale.adapter.web.security.AdminAuthorizationInterceptor;
import io.flashsale.adapter.web.security.AdminToken;
import io.flashsale.adapter.web.security.BuyerArgumentResolver;
import io.flashsale.adapter.web.security.ClientAddressResolver;
import io.flashsale.adapter.web.ApiExceptionHandler;
import io.flashsale.adapter.web.CompleteProblemWriter;
import io.flashsale.adapter.web.ProblemErrorReportValve;
import io.flashsale.adapter.web.RequestBodyLimitFilter;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import io.micrometer.observation.ObservationPredicate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.http.server.observation.ServerRequestObservationContext;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import tools.jackson.databind.json.JsonMapper;

import java.util.List;

/** Wires the HTTP adapter: its controllers and advice by scanning adapter-web, its filters and valve here. */
@Configuration(proxyBeanMethods = false)
@ComponentScan(basePackageClasses = ApiExceptionHandler.class)
@EnableConfigurationProperties({HttpLimitsProperties.class, RateLimitProperties.class})
public class WebConfiguration implements WebMvcConfigurer {

    private final AdminToken adminToken;
    private final RateLimitProperties rateLimits;

    public WebConfiguration(AdminToken adminToken, RateLimitProperties rateLimits) {
        this.adminToken = adminToken;
        this.rateLimits = rateLimits;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(new AdminAuthorizationInterceptor(adminToken));
    }

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(new BuyerArgumentResolver());
        resolvers.add(new ClientAddressResolver(rateLimits.client().enabled(), rateLimits.client().trustedHeader()));
    }

    /** Runs after Boot's own Tomcat customizer, which installs the HTML error valve this one replaces. */
    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemErrorReports() {
        return factory -> factory.addContextCustomizers(context -> ProblemErrorReportValve.install(context.getParent()));
    }

    /**
     * The reservation attempt is the crowd's endpoint: timing every one of them cost about a tenth of the request's
     * CPU (docs/performance.md). Every other endpoint keeps its {@code http.server.requests} observation.
     */
    @Bean
    ObservationPredicate noObservationOfReservationAttempts() {
        return (name, context) -> !(context instanceof ServerRequestObservationContext request
                && isReservationAttempt(request.getCarrier().getMethod(), request.getCarrier().getRequestURI()));
    }

    static boolean isReservationAttempt(String method, String path) {
        return "POST".equals(method) && path.startsWith("/api/v1/activities/") && path.endsWith("/reservations");
    }

    @Bean
    CompleteProblemWriter completeProblemWriter(JsonMapper json) {
        return new CompleteProblemWriter(json);
    }

    @Bean
    FilterRegistrationBean<RequestBodyLimitFilter> requestBodyLimitFilter(HttpLimitsProperties limits,
                                                                          CompleteProblemWriter problems) {
        var registration = new FilterRegistrationBean<>(
                new RequestBodyLimitFilter(limits.maxRequestBodySize().toBytes(), problems));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }
}
