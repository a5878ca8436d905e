package io.flashsale.benchmarks.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The benchmark's buyer token issuer: an ES256 (P-256) key pair made for one run, its public key written where the
 * service is told to find it, and one token per buyer, signed on the buyer's first attempt and reused after, as a
 * signed-in buyer's client keeps its token (ADR 76, ADR 80).
 */
final class BuyerTokenSigner {

    private static final Base64.Encoder URL = Base64.getUrlEncoder().withoutPadding();
    private static final String HEADER = URL.encodeToString("{\"alg\":\"ES256\",\"typ\":\"JWT\"}"
            .getBytes(StandardCharsets.US_ASCII));

    private final KeyPair keys;
    private final Duration lifetime;
    private final Map<String, String> bearers = new ConcurrentHashMap<>();

    BuyerTokenSigner(Duration lifetime) {
        this.lifetime = lifetime;
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            this.keys = generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes the public key as PEM into {@code file}; returns the value of {@code public-key-location}. */
    String writePublicKey(Path file) {
        String pem = "-----BEGIN PUBLIC KEY-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'})
                .encodeToString(keys.getPublic().getEncoded()) + "\n-----END PUBLIC KEY-----\n";
        try {
            Files.writeString(file, pem, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file.toUri().toString();
    }

    /** {@code Bearer <token>} for {@code buyer} (a name of {@code [A-Za-z0-9_-]}). */
    String bearer(String buyer) {
        return bearers.computeIfAbsent(buyer, this::sign);
    }

    private String sign(String buyer) {
        long now = Instant.now().getEpochSecond();
        String claims = "{\"sub\":\"" + buyer + "\",\"iat\":" + now + ",\"exp\":" + (now + lifetime.toSeconds()) + "}";
        String input = HEADER + "." + URL.encodeToString(claims.getBytes(StandardCharsets.US_ASCII));
        try {
            Signature signature = Signature.getInstance("SHA256withECDSAinP1363Format");
            signature.initSign(keys.getPrivate());
            signature.update(input.getBytes(StandardCharsets.US_ASCII));
            return "Bearer " + input + "." + URL.encodeToString(signature.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
