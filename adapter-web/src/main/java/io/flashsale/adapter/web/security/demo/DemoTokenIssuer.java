package io.flashsale.adapter.web.security.demo;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.flashsale.domain.reservation.BuyerId;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;

/**
 * Demo mode's stand-in for an identity provider: a P-256 key pair made at start and kept in memory only, signing a
 * short-lived ES256 token for whatever buyer name is asked. It exists only in demo mode, so that the buyer page can
 * sign in without one; anywhere else buyer tokens come from a real issuer.
 */
public final class DemoTokenIssuer {

    public static final String ISSUER = "flashsale-demo";

    private final KeyPair keys;
    private final Clock clock;
    private final Duration lifetime;

    private DemoTokenIssuer(KeyPair keys, Clock clock, Duration lifetime) {
        this.keys = keys;
        this.clock = clock;
        this.lifetime = lifetime;
    }

    public static DemoTokenIssuer generate(Clock clock, Duration lifetime) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return new DemoTokenIssuer(generator.generateKeyPair(), clock, lifetime);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JDK makes P-256 keys", e);
        }
    }

    public PublicKey publicKey() {
        return keys.getPublic();
    }

    public IssuedToken issue(BuyerId buyer) {
        Instant now = clock.instant();
        Instant expiresAt = now.plus(lifetime);
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .issuer(ISSUER)
                .subject(buyer.value())
                .issueTime(Date.from(now))
                .expirationTime(Date.from(expiresAt))
                .build();
        SignedJWT token = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.ES256).type(JOSEObjectType.JWT).build(), claims);
        try {
            token.sign(new ECDSASigner((ECPrivateKey) keys.getPrivate()));
        } catch (JOSEException e) {
            throw new IllegalStateException("signing with the demo key failed", e);
        }
        return new IssuedToken(token.serialize(), expiresAt);
    }

    public record IssuedToken(String token, Instant expiresAt) {
    }
}
