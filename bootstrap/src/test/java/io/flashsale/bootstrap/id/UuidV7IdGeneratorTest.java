package io.flashsale.bootstrap.id;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
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
    void givenAClockThatStandsStill_whenManyIdsAreMade_thenEachSortsAfterTheOneBefore() {
        var generator = new UuidV7IdGenerator(Clock.fixed(NOW, ZoneOffset.UTC));

        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            ids.add(generator.next());
        }

        assertThat(ids).isSortedAccordingTo(String::compareTo).doesNotHaveDuplicates();
    }

    @Test
    void givenAClockThatStepsBack_whenNext_thenTheIdStillSortsAfterTheEarlierOne() {
        var millis = new AtomicLong(NOW.toEpochMilli());
        var generator = new UuidV7IdGenerator(new SteppingClock(millis));

        String before = generator.next();
        millis.addAndGet(-5_000);
        String after = generator.next();

        assertThat(after).isGreaterThan(before);
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
    void givenEightThreadsSharingOneGenerator_whenEachMakesTwentyThousandIds_thenAllAreUniqueAndOrderedPerThread()
            throws Exception {
        var generator = new UuidV7IdGenerator(Clock.systemUTC());
        Set<String> all = ConcurrentHashMap.newKeySet();
        var start = new CountDownLatch(1);
        List<Future<Boolean>> orderedPerThread = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            for (int t = 0; t < 8; t++) {
                orderedPerThread.add(pool.submit(() -> {
                    start.await();
                    String previous = "";
                    boolean ordered = true;
                    for (int i = 0; i < 20_000; i++) {
                        String id = generator.next();
                        ordered &= id.compareTo(previous) > 0;
                        previous = id;
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
