package io.flashsale.adapter.redis.internal;

import io.flashsale.adapter.redis.RedisKeys;
import io.flashsale.application.reservation.port.out.AcceptedRequestsSnapshotPort;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Optional;

/**
 * A sale's filter of accepted request keys as one {@code GET} returned it (layout in {@link RedisKeys}, written by
 * {@code fs_keys_add} in {@code lib/ledger.lua}): a Bloom filter, so a key it does not hold was surely not accepted
 * before the read. The positions of a key are computed here exactly as the script computes them, in either layout
 * (the header's layout byte): 1, every bit of a key in one 32-bit word (ADR 83), or 0, each bit anywhere (filters
 * made before it).
 */
public final class AcceptedRequestsFilter implements AcceptedRequestsSnapshotPort {

    static final int HEADER_BYTES = 8;
    /** The layout of filters made since ADR 83: a key's bits in one word. */
    public static final int WORD_LAYOUT = 1;
    private static final int USABLE = 1;
    private static final int WORD_BITS = 32;

    private final byte[] value;
    private final long bits;
    private final int hashes;
    private final int layout;

    private AcceptedRequestsFilter(byte[] value, long bits, int hashes, int layout) {
        this.value = value;
        this.bits = bits;
        this.hashes = hashes;
        this.layout = layout;
    }

    /** The filter in a value read from Redis; empty when there is none, it is being refilled, or it is cut short. */
    public static Optional<AcceptedRequestsFilter> of(byte[] value) {
        if (value == null || value.length < HEADER_BYTES) {
            return Optional.empty();
        }
        long bits = Integer.toUnsignedLong(readInt(value, 0));
        int hashes = value[4] & 0xff;
        boolean usable = (value[5] & 0xff) == USABLE;
        int layout = value[6] & 0xff;
        if (!usable || bits == 0 || hashes == 0 || value.length < HEADER_BYTES + (bits + 7) / 8
                || layout > WORD_LAYOUT) {
            return Optional.empty();
        }
        return Optional.of(new AcceptedRequestsFilter(value, bits, hashes, layout));
    }

    @Override
    public boolean mayHold(BuyerId buyerId, RequestId requestId) {
        String key = RedisKeys.requestField(buyerId, requestId);
        if (layout == WORD_LAYOUT) {
            Word word = Word.of(key, bits, hashes);
            int at = HEADER_BYTES + Math.toIntExact(word.index() * (WORD_BITS / 8));
            return (readInt(value, at) & word.mask()) == word.mask();
        }
        for (long position : positions(key, bits, hashes)) {
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

    /**
     * Where a key's bits lie in layout 1: word {@code index} of the bits (h1 mod m/32), holding the bits of
     * {@code mask}, whose bit 31 is the word's first bit: bit {@code (h2 >>> 5i) & 31} counted from the word's first,
     * for i from 0 to {@code hashes - 1}.
     */
    public record Word(long index, int mask) {

        public static Word of(String key, long bits, int hashes) {
            return of(digest(key), bits, hashes);
        }

        /** As {@link #of(String, long, int)}, from the key's {@link #digest}, for a caller that hashes it once. */
        public static Word of(byte[] digest, long bits, int hashes) {
            long h1 = firstWord(digest);
            int h2 = readInt(digest, 4);
            int mask = 0;
            for (int i = 0; i < hashes; i++) {
                mask |= 1 << (31 - ((h2 >>> (5 * i)) & 31));
            }
            return new Word(h1 % (bits / WORD_BITS), mask);
        }

        /** The word as the script hands it to {@code BITFIELD}: the u32 after the header's two. */
        public String offset() {
            return "#" + (index + HEADER_BYTES * 8 / WORD_BITS);
        }

        /** The mask as the script reads it: an unsigned decimal. */
        public String maskText() {
            return Integer.toUnsignedString(mask);
        }
    }

    /** A key's SHA-1, which places it in the filter (and the request index's buckets, ADR 0100). */
    public static byte[] digest(String key) {
        return sha1(key.getBytes(StandardCharsets.UTF_8));
    }

    /** The first 32-bit word of a digest, unsigned: h1 of the filter, and what picks a request entry's bucket. */
    public static long firstWord(byte[] digest) {
        return Integer.toUnsignedLong(readInt(digest, 0));
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
     * A filter's size, fixed when the sale is loaded (layout 1): bits m and hash count k for under 1% false positives
     * at {@value #KEYS_PER_UNIT} accepted keys per unit of stock (returned units are sold again under new keys): 16
     * bits and 5 hashes a key (a word-blocked filter needs more bits than a plain one for the same rate: 0.74% against
     * 1% at 9.6 bits), at least {@value #MIN_BITS} bits and at most {@value #MAX_BITS} (2 MiB: past that the false
     * positives rise, and only cost a round trip each; the hash count then falls with the bits per key).
     */
    public record Size(long bits, int hashes) {

        static final double KEYS_PER_UNIT = 1.25;
        static final long MIN_BITS = 1024;
        static final long MAX_BITS = 1L << 24;
        private static final double BITS_PER_KEY = 16;
        /** Hashes per bit per key near the best rate of a 32-bit-word filter (5 at 16 bits a key, 3 at 9.6). */
        private static final double HASHES_PER_BIT = 0.32;
        /** Five bits of h2 per hash: six fit its 32. */
        private static final int MAX_HASHES = 6;

        public static Size forUnits(long units) {
            double keys = Math.max(1.0, units * KEYS_PER_UNIT);
            double wanted = Math.ceil(keys * BITS_PER_KEY / 64) * 64;
            long bits = (long) Math.min(MAX_BITS, Math.max(MIN_BITS, wanted));
            int hashes = (int) Math.max(1, Math.min(MAX_HASHES, Math.round(bits / keys * HASHES_PER_BIT)));
            return new Size(bits, hashes);
        }
    }
}
