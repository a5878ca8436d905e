package io.flashsale.bootstrap.config;

import io.flashsale.adapter.web.AcceptableAnswerInterceptor;
import io.flashsale.adapter.web.ApiExceptionHandler;
import io.flashsale.adapter.web.CeilingController;
import io.flashsale.adapter.web.CompleteProblemWriter;
import io.flashsale.adapter.web.ContentTags;
import io.flashsale.adapter.web.LeanReservationFilter;
import io.flashsale.adapter.web.MeterPipelineFigures;
import io.flashsale.adapter.web.PipelineFigures;
import io.flashsale.adapter.web.ProblemErrorReportValve;
import io.flashsale.adapter.web.ReadableAcceptHeader;
import io.flashsale.adapter.web.RequestBodyLimitFilter;
import io.flashsale.adapter.web.UnreadableAcceptFilter;
import io.flashsale.adapter.web.ResponseEntityWriter;
import io.flashsale.adapter.web.security.AdminAuthorizationInterceptor;
import io.flashsale.adapter.web.security.AdminGate;
import io.flashsale.adapter.web.security.AdminOperatorArgumentResolver;
import io.flashsale.adapter.web.security.AttemptOriginResolver;
import io.flashsale.adapter.web.security.BuyerArgumentResolver;
import io.flashsale.adapter.web.security.BuyerAuthenticator;
import io.flashsale.adapter.web.security.BuyerPaymentInterceptor;
import io.flashsale.adapter.web.security.ClientAddressResolver;
import io.flashsale.adapter.web.security.CrossSiteRequestFilter;
import io.flashsale.adapter.web.security.TrustedProxies;
import io.flashsale.application.reservation.port.in.ReserveStockUseCase;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationPredicate;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.http.server.observation.ServerRequestObservationContext;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.config.annotation.ContentNegotiationConfigurer;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;
import tools.jackson.databind.json.JsonMapper;

import java.util.List;

/** Wires the HTTP adapter: its controllers and advice by scanning adapter-web, its filters and valve here. */
@Configuration(proxyBeanMethods = false)
@ComponentScan(basePackageClasses = ApiExceptionHandler.class)
@EnableConfigurationProperties({HttpLimitsProperties.class, RateLimitProperties.class, PaymentProperties.class,
        RiskProperties.class})
public class WebConfiguration implements WebMvcConfigurer {

    private final AdminGate adminGate;
    private final RateLimitProperties rateLimits;
    private final PaymentProperties payment;
    private final BuyerAuthenticator buyers;
    private final RiskProperties risk;

    public WebConfiguration(AdminGate adminGate, RateLimitProperties rateLimits, PaymentProperties payment,
                            BuyerAuthenticator buyers, RiskProperties risk) {
        this.risk = risk;
        this.adminGate = adminGate;
        this.rateLimits = rateLimits;
        this.payment = payment;
        this.buyers = buyers;
    }

    /** Every unreadable Accept header refused as 406, however Spring's parser fails on it. */
    @Override
    public void configureContentNegotiation(ContentNegotiationConfigurer configurer) {
        configurer.strategies(List.of(new ReadableAcceptHeader()));
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(new AdminAuthorizationInterceptor(adminGate));
        registry.addInterceptor(new BuyerPaymentInterceptor(payment.buyerConfirms()));
        registry.addInterceptor(new AcceptableAnswerInterceptor()).addPathPatterns("/api/**");
    }

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(new BuyerArgumentResolver(buyers));
        resolvers.add(new AdminOperatorArgumentResolver());
        resolvers.add(clientAddresses());
        resolvers.add(attemptOrigins());
    }

    /** Runs after Boot's own Tomcat customizer, which installs the HTML error valve this one replaces. */
    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemErrorReports() {
        return factory -> factory.addContextCustomizers(context -> ProblemErrorReportValve.install(context.getParent()));
    }

    /**
     * The reservation attempt is the crowd's endpoint: timing every one of them cost about a tenth of the request's
     * CPU (docs/performance.md). Every other endpoint keeps its {@code http.server.requests} observation. The load
     * harness's ceiling path is left out alike, so that it measures the stack the attempt runs on.
     */
    @Bean
    ObservationPredicate noObservationOfReservationAttempts() {
        return (name, context) -> !(context instanceof ServerRequestObservationContext request
                && isReservationAttempt(request.getCarrier().getMethod(), request.getCarrier().getRequestURI()));
    }

    static boolean isReservationAttempt(String method, String path) {
        return "POST".equals(method) && path != null && (CeilingController.PATH.equals(path)
                || path.startsWith("/api/v1/activities/") && path.endsWith("/reservations"));
    }

    /**
     * Forwarded headers are believed from the configured proxies only: Boot's native strategy installs Tomcat's
     * RemoteIpValve, which trusts private ranges by default; this narrows it to the configured blocks (none by
     * default). Ordered after Boot's own customizer, which installs the valve.
     */
    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> trustedProxiesOnly(HttpLimitsProperties http) {
        TrustedProxies proxies = TrustedProxies.of(HttpLimitsProperties.TRUSTED_PROXIES, http.trustedProxies());
        return new TrustedProxiesCustomizer(proxies, true);
    }

    /** The operators' page reads these through the admin API, never through the actuator (ADR 73). */
    @Bean
    PipelineFigures pipelineFigures(MeterRegistry meters) {
        return new MeterPipelineFigures(meters);
    }

    @Bean
    CompleteProblemWriter completeProblemWriter(JsonMapper json) {
        return new CompleteProblemWriter(json);
    }

    @Bean
    ContentTags contentTags(JsonMapper json) {
        return new ContentTags(json);
    }

    @Bean
    FilterRegistrationBean<RequestBodyLimitFilter> requestBodyLimitFilter(HttpLimitsProperties limits,
                                                                          CompleteProblemWriter problems) {
        var registration = new FilterRegistrationBean<>(
                new RequestBodyLimitFilter(limits.maxRequestBodySize().toBytes(), problems));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }

    /** Before anything reads the Accept header: one Spring's parser cannot read is handed on as a stand-in. */
    @Bean
    FilterRegistrationBean<UnreadableAcceptFilter> unreadableAcceptFilter() {
        var registration = new FilterRegistrationBean<>(new UnreadableAcceptFilter());
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 5);
        return registration;
    }

    /** Before the lean reservation path, which answers plain attempts without the dispatcher. */
    @Bean
    FilterRegistrationBean<CrossSiteRequestFilter> crossSiteRequestFilter(CompleteProblemWriter problems) {
        var registration = new FilterRegistrationBean<>(new CrossSiteRequestFilter(problems));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
        return registration;
    }

    /** The client address the per-client limit counts, taken alike by the controller and the lean filter. */
    private ClientAddressResolver clientAddresses() {
        return new ClientAddressResolver(rateLimits.client().enabled(), rateLimits.client().exemptLoopback());
    }

    /** The address and device the risk control judges (ADR 0081), alike for the controller and the lean filter. */
    private AttemptOriginResolver attemptOrigins() {
        return risk.device().source() == RiskProperties.Source.CLAIM ? AttemptOriginResolver.deviceFromTokenClaim()
                : AttemptOriginResolver.deviceFromHeader(risk.device().header());
    }

    /**
     * The plain reservation attempt answered before the dispatcher (ADR 35, docs/performance.md); anything else about
     * the endpoint stays with the controller. Last of the filters, so a limiter registered as a filter runs first.
     * {@code flashsale.http.lean-reservations=false} sends every attempt through Spring MVC (for comparisons).
     */
    @Bean
    @ConditionalOnBooleanProperty(name = "flashsale.http.lean-reservations", matchIfMissing = true)
    FilterRegistrationBean<LeanReservationFilter> leanReservationFilter(
            ReserveStockUseCase reserveStock, JsonMapper json, RequestMappingHandlerAdapter mvc,
            @Qualifier("handlerExceptionResolver") HandlerExceptionResolver exceptions,
            @Value("${flashsale.harness.ceiling-endpoint:false}")
            boolean ceiling) {
        var filter = new LeanReservationFilter(reserveStock, json,
                new ResponseEntityWriter(mvc.getMessageConverters()), exceptions, ceiling, clientAddresses(), buyers,
                attemptOrigins());
        var registration = new FilterRegistrationBean<>(filter);
        registration.setOrder(Ordered.LOWEST_PRECEDENCE);
        return registration;
    }
}
