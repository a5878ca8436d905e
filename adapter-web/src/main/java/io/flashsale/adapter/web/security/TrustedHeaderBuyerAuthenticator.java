package io.flashsale.adapter.web.security;

import io.flashsale.adapter.web.ProblemCode;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.shared.Identifier;
import jakarta.servlet.http.HttpServletRequest;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Enumeration;

/**
 * The buyer as the {@code X-User-Id} header names it: only behind a gateway that strips the header from what clients
 * send and sets it from its own authentication. With a gateway secret configured, a request must also carry it in
 * {@code X-Gateway-Secret}, so that a caller who reaches the service around the gateway cannot name any buyer.
 */
public final class TrustedHeaderBuyerAuthenticator implements BuyerAuthenticator {

    public static final String HEADER = "X-User-Id";
    public static final String SECRET_HEADER = "X-Gateway-Secret";

    /** The secret's SHA-256, compared with the sent value's: constant time whatever the lengths. */
    private final byte[] secretDigest;

    private TrustedHeaderBuyerAuthenticator(byte[] secretDigest) {
        this.secretDigest = secretDigest;
    }

    /** Trusts the header from anyone who reaches the service. */
    public static TrustedHeaderBuyerAuthenticator withoutSecret() {
        return new TrustedHeaderBuyerAuthenticator(null);
    }

    /** Trusts the header only from a caller that also sends {@code secret} in {@link #SECRET_HEADER}. */
    public static TrustedHeaderBuyerAuthenticator withSecret(String secret) {
        if (secret == null || secret.isBlank()) {
            throw new IllegalArgumentException("a gateway secret must not be blank");
        }
        return new TrustedHeaderBuyerAuthenticator(sha256(secret));
    }

    @Override
    public BuyerId authenticate(HttpServletRequest request) {
        if (secretDigest != null) {
            String sent = single(request.getHeaders(SECRET_HEADER));
            if (sent == null || !MessageDigest.isEqual(secretDigest, sha256(sent))) {
                throw new BuyerAuthenticationException(ProblemCode.GATEWAY_SECRET_INVALID,
                        "the " + SECRET_HEADER + " header is missing or wrong: buyers are taken only from the gateway");
            }
        }
        String buyer = single(request.getHeaders(HEADER));
        if (buyer == null || !Identifier.isValid(buyer)) {
            throw new MissingUserException();
        }
        return new BuyerId(buyer);
    }

    /** The header's one value, or null when it is absent or repeated. */
    private static String single(Enumeration<String> values) {
        if (values == null || !values.hasMoreElements()) {
            return null;
        }
        String value = values.nextElement();
        return values.hasMoreElements() ? null : value;
    }

    private static byte[] sha256(String value) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
