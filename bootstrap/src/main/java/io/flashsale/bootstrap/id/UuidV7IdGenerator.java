package io.flashsale.bootstrap.id;

import io.flashsale.application.port.out.IdGenerator;

import java.time.Clock;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * RFC 9562 UUIDv7 as 32 lower-case hex characters: 48 bits of Unix milliseconds, a 12-bit counter
 * that keeps ids of the same millisecond in order (method 1 of RFC 9562, section 6.2), 62 random bits.
 * Ids sort by creation in one process even when the clock stands still or steps back.
 */
public final class UuidV7IdGenerator implements IdGenerator {

    private static final int COUNTER_BITS = 12;
    private static final long VERSION_7 = 0x7000L;
    private static final long VARIANT_RFC = 0x8000_0000_0000_0000L;
    private static final long RANDOM_62_BITS = 0x3FFF_FFFF_FFFF_FFFFL;

    private final Clock clock;
    /** (milliseconds << 12) | counter of the last id handed out. */
    private final AtomicLong last = new AtomicLong();

    public UuidV7IdGenerator(Clock clock) {
        this.clock = clock;
    }

    @Override
    public String next() {
        long stamp = nextStamp();
        long millis = stamp >>> COUNTER_BITS;
        long counter = stamp & ((1L << COUNTER_BITS) - 1);
        long high = (millis << 16) | VERSION_7 | counter;
        // Uniqueness across processes comes from these bits; ownership checks, not secrecy, guard reservations.
        long low = VARIANT_RFC | (ThreadLocalRandom.current().nextLong() & RANDOM_62_BITS);
        return HexFormat.of().toHexDigits(high) + HexFormat.of().toHexDigits(low);
    }

    private long nextStamp() {
        long now = clock.millis() << COUNTER_BITS;
        // A full counter carries into the millisecond field: order is kept, the stamp runs a little ahead.
        return last.accumulateAndGet(now, (previous, candidate) -> Math.max(previous + 1, candidate));
    }
}
