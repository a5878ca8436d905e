package io.flashsale.acceptance.crash;

import io.flashsale.acceptance.api.ApiAnswer;
import io.flashsale.acceptance.api.FlashsaleApi;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * A stream of new buyers, each reserving one unit once, sent by a few concurrent clients. It remembers what the
 * clients were told: the reservations accepted (202), and how many requests got no answer because the service died
 * under them (those may or may not have been accepted). Spans several rounds, one per life of the service.
 */
final class BuyerStream {

    private final String saleId;
    private final String skuId;
    private final String buyerPrefix;
    private final AtomicInteger nextBuyer = new AtomicInteger();
    private final Map<String, String> accepted = new ConcurrentHashMap<>();
    private final LongAdder soldOut = new LongAdder();
    private final LongAdder unanswered = new LongAdder();
    private final Map<String, LongAdder> unexpected = new ConcurrentHashMap<>();

    BuyerStream(String saleId, String skuId, String buyerPrefix) {
        this.saleId = saleId;
        this.skuId = skuId;
        this.buyerPrefix = buyerPrefix;
    }

    /** One life of the service: clients send until stopped, told "sold out", or left without an answer. */
    final class Round {

        private final ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor();
        private final AtomicBoolean stopped = new AtomicBoolean();

        private Round(FlashsaleApi api, int clientCount) {
            for (int i = 0; i < clientCount; i++) {
                clients.submit(() -> {
                    try {
                        reserveUntilDone(api, stopped);
                    } catch (RuntimeException failure) {
                        // Counted, not swallowed: the test asserts that nothing unexpected happened.
                        unexpected.computeIfAbsent("client failure " + failure, outcome -> new LongAdder()).increment();
                    }
                });
            }
            clients.shutdown();
        }

        /** Waits until the clients have been told "accepted" this many times in all rounds together. */
        void awaitAccepted(int count, Duration patience) {
            long deadline = System.nanoTime() + patience.toNanos();
            while (accepted.size() < count) {
                if (System.nanoTime() > deadline || clients.isTerminated()) {
                    throw new IllegalStateException("only " + accepted.size() + " of " + count
                            + " accepted answers; outcomes " + describe());
                }
                sleepBriefly();
            }
        }

        /** Waits for every client to finish on its own: sold out or left without an answer. */
        void awaitFinished(Duration patience) {
            try {
                if (!clients.awaitTermination(patience.toMillis(), TimeUnit.MILLISECONDS)) {
                    stopped.set(true);
                    throw new IllegalStateException("the clients did not finish within " + patience + "; outcomes "
                            + describe());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the clients were reserving", e);
            }
        }

        void stop(Duration patience) {
            stopped.set(true);
            awaitFinished(patience);
        }
    }

    Round startRound(FlashsaleApi api, int clientCount) {
        return new Round(api, clientCount);
    }

    /** Reservation id to buyer id of every reservation a client was told was accepted. */
    Map<String, String> accepted() {
        return Map.copyOf(accepted);
    }

    long unanswered() {
        return unanswered.sum();
    }

    Map<String, Long> unexpectedAnswers() {
        Map<String, Long> counts = new TreeMap<>();
        unexpected.forEach((outcome, count) -> counts.put(outcome, count.sum()));
        return counts;
    }

    String describe() {
        return "accepted=" + accepted.size() + " soldOut=" + soldOut.sum() + " unanswered=" + unanswered.sum()
                + " unexpected=" + unexpectedAnswers();
    }

    private void reserveUntilDone(FlashsaleApi api, AtomicBoolean stopped) {
        while (!stopped.get()) {
            String buyer = buyerPrefix + nextBuyer.incrementAndGet();
            ApiAnswer answer;
            try {
                answer = api.send(api.reserve(saleId, buyer,
                        Map.of("requestId", "once", "items", List.of(Map.of("skuId", skuId, "quantity", 1)))));
            } catch (UncheckedIOException serviceGone) {
                // Killed mid-request: the hot store may or may not have taken this one; the client never knows.
                unanswered.increment();
                return;
            }
            if (answer.status() == 202) {
                accepted.put(answer.text("reservationId"), buyer);
            } else if (answer.status() == 409 && "SOLD_OUT".equals(answer.code())) {
                soldOut.increment();
                return;
            } else {
                unexpected.computeIfAbsent(answer.status() + " " + answer.code(), outcome -> new LongAdder()).increment();
            }
        }
    }

    private static void sleepBriefly() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
