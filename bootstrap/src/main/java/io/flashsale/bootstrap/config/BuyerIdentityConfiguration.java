package io.flashsale.bootstrap.config;

import io.flashsale.adapter.web.security.BuyerAuthenticator;
import io.flashsale.adapter.web.security.BuyerTokenDecoders;
import io.flashsale.adapter.web.security.JwtBuyerAuthenticator;
import io.flashsale.adapter.web.security.TrustedHeaderBuyerAuthenticator;
import io.flashsale.adapter.web.security.VerifiedTokens;
import io.flashsale.adapter.web.security.demo.DemoTokenIssuer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.JwtDecoder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashSet;
import java.util.Set;

/** Chooses how buyers are identified (ADR 76): a verified bearer token, or a trusted gateway's header. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({BuyerIdentityProperties.class, BuyerTokenKeyProperties.class, RiskProperties.class})
public class BuyerIdentityConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(BuyerIdentityConfiguration.class);

    @Bean
    BuyerAuthenticator buyerAuthenticator(BuyerIdentityProperties properties, BuyerTokenKeyProperties key,
                                          ObjectProvider<DemoTokenIssuer> demoIssuer, RiskProperties risk) {
        if (risk.device().source() == RiskProperties.Source.CLAIM
                && properties.buyerAuth() != BuyerIdentityProperties.BuyerAuth.JWT) {
            throw new IllegalStateException("flashsale.risk.device.source=claim reads the buyer token's claim: it needs "
                    + "flashsale.security.buyer-auth=jwt");
        }
        BuyerAuthenticator chosen = switch (properties.buyerAuth()) {
            case JWT -> new JwtBuyerAuthenticator(decoder(key, demoIssuer.getIfAvailable()),
                    properties.buyerClaim(), Clock.systemUTC(), properties.clockSkew(),
                    new VerifiedTokens(properties.tokenCacheSize(), Clock.systemUTC(), properties.clockSkew()),
                    risk.device().source() == RiskProperties.Source.CLAIM ? risk.device().claim() : null);
            case TRUSTED_HEADER -> trustedHeader(properties.gatewaySecret());
        };
        return BuyerAuthenticator.oncePerRequest(chosen);
    }

    private static TrustedHeaderBuyerAuthenticator trustedHeader(String gatewaySecret) {
        if (gatewaySecret == null || gatewaySecret.isBlank()) {
            LOG.warn("Buyers are taken from the X-User-Id header as sent (flashsale.security.buyer-auth=trusted-header, "
                    + "no flashsale.security.gateway-secret): run this only behind a gateway that strips and sets it");
            return TrustedHeaderBuyerAuthenticator.withoutSecret();
        }
        LOG.info("Buyers are taken from the X-User-Id header of calls that carry the gateway secret");
        return TrustedHeaderBuyerAuthenticator.withSecret(gatewaySecret.strip());
    }

    private static JwtDecoder decoder(BuyerTokenKeyProperties key, DemoTokenIssuer demoIssuer) {
        Set<SignatureAlgorithm> algorithms = algorithms(key);
        if (key.publicKeyLocation() != null) {
            LOG.info("Buyer tokens are verified with the public key at {}, algorithms {}",
                    key.publicKeyLocation().getDescription(), algorithms);
            return BuyerTokenDecoders.fromPublicKeyPem(read(key), algorithms);
        }
        if (key.jwkSetUri() != null && !key.jwkSetUri().isBlank()) {
            LOG.info("Buyer tokens are verified with the keys at {}, algorithms {}", key.jwkSetUri(), algorithms);
            return BuyerTokenDecoders.fromJwkSetUri(key.jwkSetUri(), algorithms);
        }
        if (demoIssuer != null) {
            LOG.warn("Buyer tokens are verified with the demo issuer's key (POST /demo/tokens): demo mode only");
            return BuyerTokenDecoders.fromPublicKey(demoIssuer.publicKey(), Set.of(SignatureAlgorithm.ES256));
        }
        throw new IllegalStateException("flashsale.security.buyer-auth=jwt needs the buyers' issuer key: set "
                + "spring.security.oauth2.resourceserver.jwt.public-key-location or .jwk-set-uri");
    }

    private static Set<SignatureAlgorithm> algorithms(BuyerTokenKeyProperties key) {
        Set<SignatureAlgorithm> algorithms = new LinkedHashSet<>();
        for (String name : key.jwsAlgorithms()) {
            SignatureAlgorithm algorithm = SignatureAlgorithm.from(name.strip());
            if (algorithm == null) {
                throw new IllegalArgumentException("spring.security.oauth2.resourceserver.jwt.jws-algorithms: "
                        + name + " is not an asymmetric JWS algorithm");
            }
            algorithms.add(algorithm);
        }
        return algorithms;
    }

    private static String read(BuyerTokenKeyProperties key) {
        try {
            return key.publicKeyLocation().getContentAsString(StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the buyer token key "
                    + key.publicKeyLocation().getDescription(), e);
        }
    }
}
