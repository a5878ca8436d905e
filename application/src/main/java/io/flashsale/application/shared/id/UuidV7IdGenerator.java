package io.flashsale.application.shared.id;

import io.flashsale.application.shared.port.out.IdGeneratorPort;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * RFC 9562 UUIDv7 as 32 lower-case hex characters: 48 bits of Unix milliseconds, then all 74 bits the layout leaves
 * (rand_a and rand_b) drawn from a {@link SecureRandom}, so an id cannot be guessed from another (ADR 0082). Ids sort
 * by their millisecond: one process never hands out a millisecond below one it used before, even when the clock steps
 * back; ids of one millisecond come in random order among themselves.
 */
public final class UuidV7IdGenerator implements IdGeneratorPort {

    private static final long VERSION_7 = 0x7000L;
    private static final long RAND_A_BITS = 0x0FFFL;
    private static final long VARIANT_RFC = 0x8000_0000_0000_0000L;
    private static final long RAND_B_BITS = 0x3FFF_FFFF_FFFF_FFFFL;
    private static final int RANDOM_BYTES = 10;

    private final Clock clock;
    /**
     * DRBG instances (thread-safe each), a caller taking any one: with a virtual thread per request an instance per
     * thread would be made and seeded per request; a few shared ones keep the lock of each rarely contended.
     */
    private final SecureRandom[] randoms;
    private final AtomicLong lastMillis = new AtomicLong();

    public UuidV7IdGenerator(Clock clock) {
        this.clock = clock;
        this.randoms = new SecureRandom[Integer.highestOneBit(Runtime.getRuntime().availableProcessors() * 2)];
        for (int i = 0; i < randoms.length; i++) {
            randoms[i] = drbg();
        }
    }

    @Override
    public String next() {
        long millis = lastMillis.accumulateAndGet(clock.millis(), Math::max);
        byte[] random = new byte[RANDOM_BYTES];
        // Which instance is not secret: a cheap pick spreads the callers.
        randoms[ThreadLocalRandom.current().nextInt(randoms.length)].nextBytes(random);
        long bits = 0;
        for (int i = 2; i < RANDOM_BYTES; i++) {
            bits = (bits << 8) | (random[i] & 0xFF);
        }
        long randA = ((random[0] & 0xFFL) << 8 | (random[1] & 0xFFL)) & RAND_A_BITS;
        long high = (millis << 16) | VERSION_7 | randA;
        long low = VARIANT_RFC | (bits & RAND_B_BITS);
        return HexFormat.of().toHexDigits(high) + HexFormat.of().toHexDigits(low);
    }

    private static SecureRandom drbg() {
        try {
            return SecureRandom.getInstance("DRBG");
        } catch (NoSuchAlgorithmException absent) {
            throw new IllegalStateException("the JDK offers no DRBG SecureRandom", absent);
        }
    }
}
