package io.flashsale.adapter.web.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/** The shared secret of admin calls. Holds only a digest and compares in constant time. */
public final class AdminToken {

    private static final int GENERATED_BYTES = 32;

    private final byte[] digest;

    private AdminToken(String token) {
        if (token == null || token.isBlank()) {
            throw new IllegalArgumentException("an admin token must not be blank");
        }
        this.digest = sha256(token);
    }

    public static AdminToken of(String token) {
        return new AdminToken(token);
    }

    /** 256 random bits, URL-safe, so it can be pasted into a header as it is. */
    public static String generate() {
        byte[] bytes = new byte[GENERATED_BYTES];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Hashing first makes the comparison independent of the candidate's length as well as its content. */
    public boolean matches(String candidate) {
        return candidate != null && matchesDigest(sha256(candidate));
    }

    /** Constant time in the digest's content: {@link AdminCredentials} hashes a candidate once for every operator. */
    boolean matchesDigest(byte[] candidateDigest) {
        return MessageDigest.isEqual(digest, candidateDigest);
    }

    static byte[] sha256(String value) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK ships SHA-256", e);
        }
    }

    @Override
    public String toString() {
        return "AdminToken[****]";
    }
}
