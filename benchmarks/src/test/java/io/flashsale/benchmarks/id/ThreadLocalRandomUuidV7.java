package io.flashsale.benchmarks.id;

import java.time.Clock;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The baseline of {@link IdGeneratorBenchmark}: the reservation id generator before ADR 0082, as it was (a 12-bit
 * counter in rand_a, 62 bits of ThreadLocalRandom). Not used by the service.
 */
final class ThreadLocalRandomUuidV7 {

    private static final int COUNTER_BITS = 12;
    private static final long VERSION_7 = 0x7000L;
    private static final long VARIANT_RFC = 0x8000_0000_0000_0000L;
    private static final long RANDOM_62_BITS = 0x3FFF_FFFF_FFFF_FFFFL;

    private final Clock clock;
    private final AtomicLong last = new AtomicLong();

    ThreadLocalRandomUuidV7(Clock clock) {
        this.clock = clock;
    }

    String next() {
        long stamp = last.accumulateAndGet(clock.millis() << COUNTER_BITS,
                (previous, candidate) -> Math.max(previous + 1, candidate));
        long millis = stamp >>> COUNTER_BITS;
        long counter = stamp & ((1L << COUNTER_BITS) - 1);
        long high = (millis << 16) | VERSION_7 | counter;
        long low = VARIANT_RFC | (ThreadLocalRandom.current().nextLong() & RANDOM_62_BITS);
        return HexFormat.of().toHexDigits(high) + HexFormat.of().toHexDigits(low);
    }
}
