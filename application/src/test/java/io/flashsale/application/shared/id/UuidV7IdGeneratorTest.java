package io.flashsale.application.shared.id;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class UuidV7IdGeneratorTest {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00.123Z");

    @Test
    void givenAnyClock_whenNext_thenAnRfc9562Version7UuidAs32HexCharacters() {
        String id = new UuidV7IdGenerator(Clock.fixed(NOW, ZoneOffset.UTC)).next();

        assertThat(id).matches("[0-9a-f]{32}");
        UUID uuid = UUID.fromString(id.replaceFirst("(.{8})(.{4})(.{4})(.{4})(.{12})", "$1-$2-$3-$4-$5"));
        assertThat(uuid.version()).isEqualTo(7);
        assertThat(uuid.variant()).isEqualTo(2);
        assertThat(uuid.getMostSignificantBits() >>> 16).isEqualTo(NOW.toEpochMilli());
    }

    @Test
    void givenAClockThatStandsStill_whenManyIdsAreMade_thenAllShareItsMillisecondAndNoneRepeats() {
        var generator = new UuidV7IdGenerator(Clock.fixed(NOW, ZoneOffset.UTC));

        List<String> ids = ids(generator, 10_000);

        assertThat(ids).doesNotHaveDuplicates().allSatisfy(id -> assertThat(millis(id)).isEqualTo(NOW.toEpochMilli()));
    }

    @Test
    void givenManyIds_thenEachOfThe74RandomBitsIsSetInAboutHalfOfThem() {
        List<String> ids = ids(new UuidV7IdGenerator(Clock.fixed(NOW, ZoneOffset.UTC)), 10_000);

        int[] ones = new int[74];
        for (String id : ids) {
            long[] random = randomBits(id);
            for (int bit = 0; bit < 12; bit++) {
                ones[bit] += (int) (random[0] >>> bit & 1);
            }
            for (int bit = 0; bit < 62; bit++) {
                ones[12 + bit] += (int) (random[1] >>> bit & 1);
            }
        }

        // 10,000 fair coins: 5,000 +- 50 (one standard deviation); 4,700..5,300 is six of them.
        assertThat(Arrays.stream(ones).boxed().toList()).as("ones per random bit position")
                .allSatisfy(count -> assertThat(count).isBetween(4_700, 5_300));
    }

    @Test
    void givenOneIdOfAMillisecond_thenTheNextOfTheSameMillisecondIsNotItsSuccessor() {
        List<String> ids = ids(new UuidV7IdGenerator(Clock.fixed(NOW, ZoneOffset.UTC)), 10_000);

        long successors = 0;
        for (int i = 1; i < ids.size(); i++) {
            long[] previous = randomBits(ids.get(i - 1));
            long[] next = randomBits(ids.get(i));
            if (next[0] == previous[0] + 1 || next[0] == previous[0] && next[1] == previous[1] + 1) {
                successors++;
            }
        }

        // A counter (the 12 bits of the previous version) makes nearly every id its predecessor's successor; random
        // bits do so about twice in 4,096.
        assertThat(successors).isLessThan(50);
    }

    @Test
    void givenAClockThatStepsBack_whenNext_thenTheIdKeepsTheLaterMillisecond() {
        var millis = new AtomicLong(NOW.toEpochMilli());
        var generator = new UuidV7IdGenerator(new SteppingClock(millis));

        String before = generator.next();
        millis.addAndGet(-5_000);
        String after = generator.next();

        assertThat(millis(after)).isEqualTo(millis(before));
    }

    @Test
    void givenTimePasses_whenNext_thenLaterIdsSortAfterEarlierOnes() {
        var millis = new AtomicLong(NOW.toEpochMilli());
        var generator = new UuidV7IdGenerator(new SteppingClock(millis));

        String first = generator.next();
        millis.incrementAndGet();
        String second = generator.next();

        assertThat(second).isGreaterThan(first);
        assertThat(second.substring(0, 12)).isGreaterThan(first.substring(0, 12));
    }

    @Test
    void givenEightThreadsSharingOneGenerator_whenEachMakesTwentyThousandIds_thenAllAreUniqueAndTimeOrderedPerThread()
            throws Exception {
        var generator = new UuidV7IdGenerator(Clock.systemUTC());
        Set<String> all = ConcurrentHashMap.newKeySet();
        var start = new CountDownLatch(1);
        List<Future<Boolean>> orderedPerThread = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            for (int t = 0; t < 8; t++) {
                orderedPerThread.add(pool.submit(() -> {
                    start.await();
                    long previous = 0;
                    boolean ordered = true;
                    for (int i = 0; i < 20_000; i++) {
                        String id = generator.next();
                        ordered &= millis(id) >= previous;
                        previous = millis(id);
                        all.add(id);
                    }
                    return ordered;
                }));
            }
            start.countDown();
            for (Future<Boolean> ordered : orderedPerThread) {
                assertThat(ordered.get()).isTrue();
            }
        }
        assertThat(all).hasSize(8 * 20_000);
    }

    private static List<String> ids(UuidV7IdGenerator generator, int count) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(generator.next());
        }
        return ids;
    }

    private static long millis(String id) {
        return Long.parseLong(id.substring(0, 12), 16);
    }

    /** rand_a (12 bits) and rand_b (62 bits) of an id. */
    private static long[] randomBits(String id) {
        long high = Long.parseUnsignedLong(id.substring(0, 16), 16);
        long low = Long.parseUnsignedLong(id.substring(16), 16);
        return new long[] {high & 0x0FFF, low & 0x3FFF_FFFF_FFFF_FFFFL};
    }

    /** A clock the test moves by hand. */
    private static final class SteppingClock extends Clock {

        private final AtomicLong millis;

        SteppingClock(AtomicLong millis) {
            this.millis = millis;
        }

        @Override
        public long millis() {
            return millis.get();
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis.get());
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
