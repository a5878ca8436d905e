package io.flashsale.adapter.redis.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

@Timeout(30)
class CoalescedNoticesTest {

    private static final Duration WINDOW = Duration.ofMillis(5);

    private record Sent(String key, long atNanos) {
    }

    private final List<Sent> sent = new CopyOnWriteArrayList<>();

    @Test
    void givenABurstOfNoticesOfOneKey_thenAtMostOneIsSentPerWindowAndOneAfterTheLast() throws InterruptedException {
        try (var notices = new CoalescedNotices("test-notices", WINDOW, key -> sent.add(new Sent(key, System.nanoTime())))) {
            long start = System.nanoTime();
            long lastNotice = start;
            while (System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(200)) {
                // Taken before the call: the sender may send this very notice before the call returns.
                lastNotice = System.nanoTime();
                notices.notice("sale");
            }
            awaitSentAfter(lastNotice);
        }

        for (int i = 1; i < sent.size(); i++) {
            assertThat(sent.get(i).atNanos() - sent.get(i - 1).atNanos()).as("gap before send " + i)
                    .isGreaterThanOrEqualTo(WINDOW.toNanos());
        }
        assertThat(sent).hasSizeGreaterThan(1).allSatisfy(one -> assertThat(one.key()).isEqualTo("sale"));
    }

    @Test
    void noticesOfDifferentKeysAreEachSent() throws InterruptedException {
        try (var notices = new CoalescedNotices("test-notices", WINDOW, key -> sent.add(new Sent(key, System.nanoTime())))) {
            notices.notice("a");
            notices.notice("b");
            notices.notice("c");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (sent.size() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
        }

        assertThat(sent).extracting(Sent::key).containsExactlyInAnyOrder("a", "b", "c");
    }

    @Test
    void aFailingSendIsDroppedAndTheNextNoticeIsSentAllTheSame() throws InterruptedException {
        var failedOnce = new AtomicBoolean();
        try (var notices = new CoalescedNotices("test-notices", WINDOW, key -> {
            if (failedOnce.compareAndSet(false, true)) {
                throw new IllegalStateException("redis down");
            }
            sent.add(new Sent(key, System.nanoTime()));
        })) {
            notices.notice("sale");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (!failedOnce.get() && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            long after = System.nanoTime();
            notices.notice("sale");
            awaitSentAfter(after);
        }

        assertThat(sent).hasSize(1);
    }

    /** Waits (at most 5 s, a window is 5 ms) until a send later than {@code nanos}. */
    private void awaitSentAfter(long nanos) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (sent.stream().noneMatch(one -> one.atNanos() >= nanos) && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertThat(sent).as("a send after the last notice").anySatisfy(one ->
                assertThat(one.atNanos()).isGreaterThanOrEqualTo(nanos));
    }
}
