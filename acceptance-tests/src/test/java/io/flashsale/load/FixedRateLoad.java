package io.flashsale.load;

import io.flashsale.acceptance.api.ApiAnswer;
import io.flashsale.acceptance.api.FlashsaleApi;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * An open workload: request i leaves at start + i / rate, whatever became of the earlier ones, each from a new buyer
 * for one unit. The answer time is measured from the moment the request was due, so a slow service cannot hide its
 * queue behind a slowed-down client. When {@code maxInFlight} requests are outstanding a due request is skipped and
 * counted instead of queued in the client.
 */
final class FixedRateLoad {

    private final FlashsaleApi api;
    private final String saleId;
    private final String skuId;
    private final String buyerPrefix;
    private final ConcurrentHistogram answerMicros = new ConcurrentHistogram(3);
    private final LongAdder accepted = new LongAdder();
    private final LongAdder skipped = new LongAdder();
    private final Map<String, LongAdder> others = new ConcurrentHashMap<>();

    FixedRateLoad(FlashsaleApi api, String saleId, String skuId, String buyerPrefix) {
        this.api = api;
        this.saleId = saleId;
        this.skuId = skuId;
        this.buyerPrefix = buyerPrefix;
    }

    /** Sends {@code rate * seconds} requests at the fixed rate and returns when every answer is in. */
    void run(int rate, int seconds, int maxInFlight) {
        long interval = TimeUnit.SECONDS.toNanos(1) / rate;
        long requests = (long) rate * seconds;
        Semaphore inFlight = new Semaphore(maxInFlight);
        long start = System.nanoTime();
        try (ExecutorService senders = Executors.newVirtualThreadPerTaskExecutor()) {
            for (long i = 0; i < requests; i++) {
                long due = start + i * interval;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
                if (!inFlight.tryAcquire()) {
                    skipped.increment();
                    continue;
                }
                String buyer = buyerPrefix + i;
                senders.submit(() -> {
                    try {
                        send(buyer, due);
                    } finally {
                        inFlight.release();
                    }
                });
            }
        }
    }

    private void send(String buyer, long due) {
        try {
            ApiAnswer answer = api.send(api.reserve(saleId, buyer,
                    Map.of("requestId", "load", "items", List.of(Map.of("skuId", skuId, "quantity", 1)))));
            answerMicros.recordValue(Math.max(1, (System.nanoTime() - due) / 1_000));
            if (answer.status() == 202) {
                accepted.increment();
            } else {
                count(answer.status() + " " + answer.code());
            }
        } catch (UncheckedIOException | IllegalStateException failed) {
            count("no answer: " + failed.getMessage());
        }
    }

    private void count(String outcome) {
        others.computeIfAbsent(outcome, key -> new LongAdder()).increment();
    }

    long accepted() {
        return accepted.sum();
    }

    long skipped() {
        return skipped.sum();
    }

    Map<String, Long> otherOutcomes() {
        Map<String, Long> counts = new TreeMap<>();
        others.forEach((outcome, count) -> counts.put(outcome, count.sum()));
        return counts;
    }

    /** Time from a request being due to its answer, in microseconds. */
    Histogram answerTimes() {
        return answerMicros.copy();
    }
}
