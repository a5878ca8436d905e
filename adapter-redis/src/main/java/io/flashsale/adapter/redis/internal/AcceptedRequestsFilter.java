package io.flashsale.adapter.redis.internal;

import io.flashsale.adapter.redis.RedisKeys;
import io.flashsale.application.port.out.AcceptedRequests;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Optional;

/**
 * A sale's filter of accepted request keys as one {@code GET} returned it (layout in {@link RedisKeys}, written by
 * {@code fs_keys_add} in {@code lib/ledger.lua}): a Bloom filter, so a key it does not hold was surely not accepted
 * before the read. The positions of a key are computed here exactly as the script computes them.
 */
public final class AcceptedRequestsFilter implements AcceptedRequests {

    static final int HEADER_BYTES = 8;
    private static final int USABLE = 1;

    private final byte[] value;
    private final long bits;
    private final int hashes;

    private AcceptedRequestsFilter(byte[] value, long bits, int hashes) {
        this.value = value;
        this.bits = bits;
        this.hashes = hashes;
    }

    /** The filter in a value read from Redis; empty when there is none, it is being refilled, or it is cut short. */
    public static Optional<AcceptedRequestsFilter> of(byte[] value) {
        if (value == null || value.length < HEADER_BYTES) {
            return Optional.empty();
        }
        long bits = Integer.toUnsignedLong(readInt(value, 0));
        int hashes = value[4] & 0xff;
        boolean usable = (value[5] & 0xff) == USABLE;
        if (!usable || bits == 0 || hashes == 0 || value.length < HEADER_BYTES + (bits + 7) / 8) {
            return Optional.empty();
        }
        return Optional.of(new AcceptedRequestsFilter(value, bits, hashes));
    }

    @Override
    public boolean mayHold(BuyerId buyerId, RequestId requestId) {
        for (long position : positions(RedisKeys.requestField(buyerId, requestId), bits, hashes)) {
            long bit = HEADER_BYTES * 8L + position;
            if ((value[(int) (bit >>> 3)] & (0x80 >>> (bit & 7))) == 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * The key's bit positions among {@code bits}, as {@code fs_keys_add} sets them: h1, h2 the first two 32-bit words of
     * the key's SHA-1, then {@code (h1 + i * h2) mod bits} for i from 0 to {@code hashes - 1}.
     */
    public static long[] positions(String key, long bits, int hashes) {
        byte[] digest = sha1(key.getBytes(StandardCharsets.UTF_8));
        long h1 = Integer.toUnsignedLong(readInt(digest, 0));
        long h2 = Integer.toUnsignedLong(readInt(digest, 4));
        long[] positions = new long[hashes];
        for (int i = 0; i < hashes; i++) {
            positions[i] = (h1 + i * h2) % bits;
        }
        return positions;
    }

    private static int readInt(byte[] bytes, int from) {
        return (bytes[from] & 0xff) << 24 | (bytes[from + 1] & 0xff) << 16 | (bytes[from + 2] & 0xff) << 8
                | bytes[from + 3] & 0xff;
    }

    private static byte[] sha1(byte[] input) {
        try {
            return MessageDigest.getInstance("SHA-1").digest(input);
        } catch (NoSuchAlgorithmException absent) {
            throw new IllegalStateException("every Java runtime has SHA-1", absent);
        }
    }

    /**
     * A filter's size, fixed when the sale is loaded: bits m and hash count k for about 1% false positives at
     * {@value #KEYS_PER_UNIT} accepted keys per unit of stock (returned units are sold again under new keys), at least
     * {@value #MIN_BITS} bits and at most {@value #MAX_BITS} (2 MiB: past that the false positives rise, and only cost
     * a round trip each).
     */
    public record Size(long bits, int hashes) {

        static final double KEYS_PER_UNIT = 1.25;
        static final long MIN_BITS = 1024;
        static final long MAX_BITS = 1L << 24;
        /** -ln(0.01) / ln(2)^2: the bits per key of a 1% Bloom filter. */
        private static final double BITS_PER_KEY = 9.6;
        private static final int MAX_HASHES = 16;

        public static Size forUnits(long units) {
            double keys = Math.max(1.0, units * KEYS_PER_UNIT);
            double wanted = Math.ceil(keys * BITS_PER_KEY / 64) * 64;
            long bits = (long) Math.min(MAX_BITS, Math.max(MIN_BITS, wanted));
            int hashes = (int) Math.max(1, Math.min(MAX_HASHES, Math.round(bits / keys * Math.log(2))));
            return new Size(bits, hashes);
        }
    }
}
