package io.flashsale.testsupport;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
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
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Buyer tokens for tests, signed with plain JDK crypto: a key pair of this JVM, its public key as PEM (or a file, for
 * {@code spring.security.oauth2.resourceserver.jwt.public-key-location}), and JWTs naming a buyer. Also the broken
 * tokens a service must refuse: another key, another algorithm, no signature.
 */
public final class TestBuyerTokens {

    private static final Base64.Encoder URL = Base64.getUrlEncoder().withoutPadding();
    private static final TestBuyerTokens RSA = new TestBuyerTokens(generate("RSA"), "RS256");

    private final KeyPair keys;
    private final String algorithm;
    private Path publicKeyFile;

    private TestBuyerTokens(KeyPair keys, String algorithm) {
        this.keys = keys;
        this.algorithm = algorithm;
    }

    /** This JVM's RS256 issuer, shared by every test that configures the service with its key. */
    public static TestBuyerTokens rsa() {
        return RSA;
    }

    /** A fresh issuer of its own (another key than any service knows). */
    public static TestBuyerTokens newRsa() {
        return new TestBuyerTokens(generate("RSA"), "RS256");
    }

    /** A fresh ES256 issuer (P-256). */
    public static TestBuyerTokens newEc() {
        return new TestBuyerTokens(generate("EC"), "ES256");
    }

    /** A token for {@code buyer}, valid for an hour. */
    public String forBuyer(String buyer) {
        return token(claims(buyer, Instant.now().plusSeconds(3600)));
    }

    public String token(Map<String, Object> claims) {
        return token(algorithm, claims);
    }

    /**
     * A token signed with this key under {@code alg}: RS256/RS512 (RSA keys), ES256 (EC keys), HS256 (keyed with the
     * public key's bytes: the algorithm-confusion attack) or none (no signature).
     */
    public String token(String alg, Map<String, Object> claims) {
        String signingInput = URL.encodeToString(json(Map.of("alg", alg, "typ", "JWT")).getBytes(StandardCharsets.UTF_8))
                + "." + URL.encodeToString(json(claims).getBytes(StandardCharsets.UTF_8));
        return signingInput + "." + URL.encodeToString(sign(alg, signingInput.getBytes(StandardCharsets.US_ASCII)));
    }

    /**
     * {@code sub}, {@code iat} (now, or just before an expiry already past) and {@code exp}; numeric dates in seconds,
     * as JWT has them.
     */
    public static Map<String, Object> claims(String buyer, Instant expiresAt) {
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("sub", buyer);
        claims.put("iat", Math.min(Instant.now().getEpochSecond(), expiresAt.getEpochSecond() - 1));
        claims.put("exp", expiresAt.getEpochSecond());
        return claims;
    }

    public String publicKeyPem() {
        String base64 = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(keys.getPublic().getEncoded());
        return "-----BEGIN PUBLIC KEY-----\n" + base64 + "\n-----END PUBLIC KEY-----\n";
    }

    /** The public key in a PEM file of its own, written once. */
    public synchronized Path publicKeyFile() {
        if (publicKeyFile == null) {
            try {
                publicKeyFile = Files.createTempFile("flashsale-test-buyer-key", ".pem");
                Files.writeString(publicKeyFile, publicKeyPem());
                publicKeyFile.toFile().deleteOnExit();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return publicKeyFile;
    }

    /** The value of {@code public-key-location} for {@link #publicKeyFile()}. */
    public String publicKeyLocation() {
        return publicKeyFile().toUri().toString();
    }

    private byte[] sign(String alg, byte[] input) {
        try {
            return switch (alg) {
                case "none" -> new byte[0];
                case "HS256" -> {
                    Mac mac = Mac.getInstance("HmacSHA256");
                    mac.init(new SecretKeySpec(publicKeyPem().getBytes(StandardCharsets.US_ASCII), "HmacSHA256"));
                    yield mac.doFinal(input);
                }
                default -> {
                    Signature signature = Signature.getInstance(switch (alg) {
                        case "RS256" -> "SHA256withRSA";
                        case "RS512" -> "SHA512withRSA";
                        case "ES256" -> "SHA256withECDSAinP1363Format";
                        default -> throw new IllegalArgumentException("no test signer for " + alg);
                    });
                    signature.initSign(keys.getPrivate());
                    signature.update(input);
                    yield signature.sign();
                }
            };
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String json(Map<String, Object> members) {
        return members.entrySet().stream()
                .map(member -> "\"" + member.getKey() + "\":" + (member.getValue() instanceof Number number
                        ? number.toString() : "\"" + member.getValue() + "\""))
                .collect(Collectors.joining(",", "{", "}"));
    }

    private static KeyPair generate(String kind) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance(kind);
            if ("EC".equals(kind)) {
                generator.initialize(new ECGenParameterSpec("secp256r1"));
            } else {
                generator.initialize(2048);
            }
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
