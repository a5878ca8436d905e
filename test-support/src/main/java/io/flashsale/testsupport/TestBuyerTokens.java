package io.flashsale.testsupport;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Buyer tokens for tests, signed with plain JDK crypto: the tests' issuer (a fixed RSA key pair of test-support's
 * resources, so that every test JVM and every service a test configures agree without passing a key around), fresh
 * issuers of a test's own, the public key as PEM (or a file, for
 * {@code spring.security.oauth2.resourceserver.jwt.public-key-location}), and JWTs naming a buyer. Also the broken
 * tokens a service must refuse: another key, another algorithm, no signature.
 *
 * <p>The fixed key signs test tokens only: it is public in the repository and no deployment may trust it.
 */
public final class TestBuyerTokens {

    /** The property that points a service at its buyers' issuer key (ADR 76). */
    public static final String PUBLIC_KEY_LOCATION_PROPERTY =
            "spring.security.oauth2.resourceserver.jwt.public-key-location";
    /** The tests' issuer's public key, for a service whose class path holds test-support (in-JVM services). */
    public static final String CLASSPATH_PUBLIC_KEY_LOCATION =
            "classpath:io/flashsale/testsupport/test-buyer-issuer.pub.pem";

    private static final Base64.Encoder URL = Base64.getUrlEncoder().withoutPadding();
    private static final Duration LIFETIME = Duration.ofHours(1);
    /** A remembered token is handed out again while it has at least this long to live. */
    private static final Duration REUSE_WHILE = Duration.ofMinutes(30);
    private static final TestBuyerTokens RSA = new TestBuyerTokens(fixedRsaKeys(), "RS256");

    private final KeyPair keys;
    private final String algorithm;
    private final Map<String, Minted> minted = new ConcurrentHashMap<>();
    private Path publicKeyFile;

    private record Minted(String token, Instant expiresAt) {
    }

    private TestBuyerTokens(KeyPair keys, String algorithm) {
        this.keys = keys;
        this.algorithm = algorithm;
    }

    /** The tests' RS256 issuer (the fixed key), shared by every test that configures the service with its key. */
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
        return token(claims(buyer, Instant.now().plus(LIFETIME)));
    }

    /** {@link #bearer} of the tests' issuer ({@link #rsa()}). */
    public static String bearerOf(String buyer) {
        return RSA.bearer(buyer);
    }

    /**
     * {@code Bearer <token>} for {@code buyer}: the value of a signed-in buyer's {@code Authorization} header. A token
     * is remembered per buyer and handed out again while it has half an hour to live, so a busy test does not sign one
     * per request.
     */
    public String bearer(String buyer) {
        Instant now = Instant.now();
        Minted token = minted.compute(buyer, (name, known) -> known != null
                && known.expiresAt().isAfter(now.plus(REUSE_WHILE))
                ? known : new Minted(forBuyer(name), now.plus(LIFETIME)));
        return "Bearer " + token.token();
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

    private static KeyPair fixedRsaKeys() {
        try {
            KeyFactory rsa = KeyFactory.getInstance("RSA");
            return new KeyPair(
                    rsa.generatePublic(new X509EncodedKeySpec(pem("test-buyer-issuer.pub.pem"))),
                    rsa.generatePrivate(new PKCS8EncodedKeySpec(pem("test-buyer-issuer.key.pem"))));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] pem(String resource) {
        try (InputStream in = TestBuyerTokens.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing test-support resource " + resource);
            }
            String text = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            return Base64.getMimeDecoder().decode(text.replaceAll("-----[A-Z ]+-----", ""));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
