package io.flashsale.bootstrap.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.core.io.Resource;

import java.util.List;

/**
 * The key buyer tokens are verified with, under Spring Boot's usual resource-server names (only the decoder is used,
 * not Spring Security's filter chain: ADR 76). One of the two is needed with {@code flashsale.security.buyer-auth=jwt}
 * (outside demo mode, where the demo issuer's key is used when neither is set).
 *
 * @param publicKeyLocation a PEM public key ({@code -----BEGIN PUBLIC KEY-----}, RSA or EC), e.g. {@code file:...}
 * @param jwkSetUri         the issuer's JWK set, fetched and cached
 * @param jwsAlgorithms     the signature algorithms accepted; any other (HS256, none, ...) is refused
 */
@ConfigurationProperties("spring.security.oauth2.resourceserver.jwt")
public record BuyerTokenKeyProperties(Resource publicKeyLocation, String jwkSetUri,
                                      @DefaultValue({"RS256", "ES256"}) List<String> jwsAlgorithms) {
}
