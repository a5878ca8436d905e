package io.flashsale.bootstrap.openapi;

import io.flashsale.adapter.web.ProblemCode;
import io.flashsale.adapter.web.openapi.ProblemResponses;
import io.flashsale.adapter.web.pages.ApiDocsHeadersFilter;
import io.flashsale.adapter.web.security.AdminOperator;
import io.flashsale.adapter.web.security.ClientAddress;
import io.flashsale.application.reservation.model.AttemptOrigin;
import io.flashsale.domain.reservation.BuyerId;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.servers.Server;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.Arrays;
import java.util.List;

import static io.flashsale.adapter.web.openapi.ProblemResponses.ADMIN_SCHEME;
import static io.flashsale.adapter.web.openapi.ProblemResponses.BUYER_SCHEME;
import static io.flashsale.adapter.web.openapi.ProblemResponses.PROBLEM_SCHEMA;

/**
 * The API description at {@code /v3/api-docs} (OpenAPI 3.1) and Swagger UI at {@code /swagger-ui.html}. The
 * controllers carry no OpenAPI annotations: adapter-web's {@link ProblemResponses}, registered here, adds the problem
 * responses of every operation from what the handler method declares.
 */
@Configuration(proxyBeanMethods = false)
public class OpenApiConfiguration {

    static {
        // Resolved from the bearer token (or X-User-Id) by BuyerArgumentResolver, not a query object: ProblemResponses
        // adds the header.
        SpringDocUtils.getConfig().addRequestWrapperToIgnore(BuyerId.class);
        // Resolved from the connection and the trusted header for the per-client rate limit, never a parameter.
        SpringDocUtils.getConfig().addRequestWrapperToIgnore(ClientAddress.class);
        // The connection's address and the device header, for the risk control: ProblemResponses adds the header.
        SpringDocUtils.getConfig().addRequestWrapperToIgnore(AttemptOrigin.class);
        // The operator whose admin token authenticated the call (ADR 84), never a parameter.
        SpringDocUtils.getConfig().addAnnotationsToIgnore(AdminOperator.class);
    }

    @Bean
    OpenAPI flashsaleOpenApi() {
        return new OpenAPI()
                .info(new Info().title("Flashsale API").version("v1").description("""
                        Sells a fixed stock to a crowd without overselling. Buyers are identified by a signed bearer \
                        JWT whose subject is the buyer (buyer-auth=jwt, the default), or, behind a gateway that strips \
                        and sets it, by the X-User-Id header (buyer-auth=trusted-header); admin calls need the \
                        admin bearer token. Every error is application/problem+json (RFC 9457) with a stable `code`."""))
                // Relative: the description is the same whichever host and port serve it.
                .servers(List.of(new Server().url("/")))
                .components(new Components()
                        .addSecuritySchemes(ADMIN_SCHEME, new SecurityScheme().type(SecurityScheme.Type.HTTP)
                                .scheme("bearer").description("FLASHSALE_ADMIN_TOKEN, or the token logged at start"))
                        .addSecuritySchemes(BUYER_SCHEME, new SecurityScheme().type(SecurityScheme.Type.HTTP)
                                .scheme("bearer").bearerFormat("JWT").description("buyer-auth=jwt: a token of the "
                                        + "buyers' issuer (RS256 or ES256), its sub the buyer; never the admin token"))
                        .addSchemas(PROBLEM_SCHEMA, problemSchema()));
    }

    /** Swagger UI's page, files and configuration, and the description, under the pages' browser headers (ADR 73). */
    @Bean
    FilterRegistrationBean<ApiDocsHeadersFilter> apiDocsHeadersFilter() {
        FilterRegistrationBean<ApiDocsHeadersFilter> registration = new FilterRegistrationBean<>(
                new ApiDocsHeadersFilter());
        registration.addUrlPatterns("/swagger-ui.html", "/swagger-ui/*", "/v3/api-docs", "/v3/api-docs/*");
        return registration;
    }

    @Bean
    OperationCustomizer problemResponses() {
        return new ProblemResponses();
    }

    private static Schema<?> problemSchema() {
        Schema<Object> fieldError = new ObjectSchema()
                .addProperty("field", new StringSchema())
                .addProperty("message", new StringSchema());
        StringSchema code = new StringSchema();
        code.setEnum(Arrays.stream(ProblemCode.values()).map(Enum::name).toList());
        return new ObjectSchema()
                .description("RFC 9457 problem details with the stable code that clients switch on")
                .addProperty("type", new StringSchema().format("uri"))
                .addProperty("title", new StringSchema())
                .addProperty("status", new IntegerSchema())
                .addProperty("detail", new StringSchema())
                .addProperty("instance", new StringSchema().format("uri-reference"))
                .addProperty("code", code.description("stable; see the operation's responses for the codes it answers"))
                .addProperty("errors", new ArraySchema().items(fieldError).description("with VALIDATION: what is wrong"))
                .required(List.of("status", "code"));
    }
}
