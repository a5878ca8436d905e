package io.flashsale.adapter.web.security;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The payment provider's signature of a notification, header {@value #HEADER}:
 * {@code t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">} keyed with the shared secret. Several {@code v1}
 * entries are allowed (a provider rotating its secret signs with both); one that matches is enough. A timestamp
 * further than the tolerance from this instance's clock, either way, is stale: a captured notification cannot be
 * replayed later. Signatures are compared in constant time.
 */
public final class NotificationSignature {

    public static final String HEADER = "Flashsale-Signature";
    public static final Duration DEFAULT_TOLERANCE = Duration.ofMinutes(5);

    private static final String ALGORITHM = "HmacSHA256";
    private static final int SIGNATURE_BYTES = 32;
    /** Enough digits for any plausible unix time; more is not a timestamp. */
    private static final int MAX_TIMESTAMP_DIGITS = 12;
    private static final int MAX_HEADER_LENGTH = 1024;

    private final SecretKeySpec key;
    private final Duration tolerance;
    private final Clock clock;

    public NotificationSignature(String secret, Duration tolerance, Clock clock) {
        if (secret == null || secret.isBlank()) {
            throw new IllegalArgumentException("a notification secret is required");
        }
        if (tolerance.isNegative()) {
            throw new IllegalArgumentException("the tolerance cannot be negative");
        }
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM);
        this.tolerance = tolerance;
        this.clock = clock;
    }

    /** What the header says of the body. */
    public Verdict verify(String header, byte[] body) {
        if (header == null || header.isBlank()) {
            return Verdict.MISSING;
        }
        Parsed parsed = parse(header);
        if (parsed == null) {
            return Verdict.MALFORMED;
        }
        long now = clock.instant().getEpochSecond();
        if (Math.abs(now - parsed.timestamp()) > tolerance.toSeconds()) {
            return Verdict.STALE;
        }
        byte[] expected = sign(parsed.timestampText(), body);
        boolean matches = false;
        for (byte[] candidate : parsed.signatures()) {
            // Every candidate is compared, so the time taken does not tell which one came close.
            matches |= MessageDigest.isEqual(expected, candidate);
        }
        return matches ? Verdict.VALID : Verdict.MISMATCH;
    }

    /** The header a provider sends for {@code body} at {@code unixSeconds}: for tests and for a simulated provider. */
    public String header(long unixSeconds, byte[] body) {
        String timestamp = Long.toString(unixSeconds);
        return "t=" + timestamp + ",v1=" + HexFormat.of().formatHex(sign(timestamp, body));
    }

    private byte[] sign(String timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            mac.update(timestamp.getBytes(StandardCharsets.US_ASCII));
            mac.update((byte) '.');
            return mac.doFinal(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    /** {@code t} exactly once, at least one well-formed {@code v1}; other schemes are ignored. Null when not so. */
    private static Parsed parse(String header) {
        if (header.length() > MAX_HEADER_LENGTH) {
            return null;
        }
        String timestamp = null;
        List<byte[]> signatures = new ArrayList<>();
        for (String part : header.split(",", -1)) {
            int equals = part.indexOf('=');
            if (equals <= 0) {
                return null;
            }
            String name = part.substring(0, equals).strip();
            String value = part.substring(equals + 1).strip();
            if (name.equals("t")) {
                if (timestamp != null || !isTimestamp(value)) {
                    return null;
                }
                timestamp = value;
            } else if (name.equals("v1")) {
                byte[] signature = hex(value);
                if (signature == null) {
                    return null;
                }
                signatures.add(signature);
            }
        }
        if (timestamp == null || signatures.isEmpty()) {
            return null;
        }
        return new Parsed(timestamp, Long.parseLong(timestamp), signatures);
    }

    private static boolean isTimestamp(String value) {
        if (value.isEmpty() || value.length() > MAX_TIMESTAMP_DIGITS) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            if (value.charAt(i) < '0' || value.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    private static byte[] hex(String value) {
        if (value.length() != SIGNATURE_BYTES * 2) {
            return null;
        }
        try {
            return HexFormat.of().parseHex(value);
        } catch (IllegalArgumentException notHex) {
            return null;
        }
    }

    private record Parsed(String timestampText, long timestamp, List<byte[]> signatures) {
    }

    public enum Verdict {
        VALID,
        /** No header. */
        MISSING,
        /** Not {@code t=<digits>,v1=<64 hex digits>}. */
        MALFORMED,
        /** Signed further than the tolerance from now. */
        STALE,
        /** Well-formed and timely, but no signature matches the body. */
        MISMATCH
    }
}
