package io.flashsale.benchmarks;

import org.HdrHistogram.Histogram;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The same crowd for every strategy: {@code clients} threads released together, each taking one unit per attempt
 * back to back until the budget is spent. Every fourth attempt repeats the buyer of the one before it, drawn by
 * another thread at about the same moment, so a per-buyer limit is tested under real concurrency too. The crowd
 * keeps its own books (units handed out per buyer) and judges oversell and limit violations from them, not from
 * what a strategy says about itself.
 */
public final class Crowd {

    private static final int QUANTITY = 1;
    private static final long HIGHEST_MICROS = Duration.ofMinutes(2).toNanos() / 1000;

    /** How long a run goes on: a number of attempts (tests: exact counts) or a time (the benchmark). */
    public record Budget(long attempts, Duration duration) {

        public static Budget attempts(long attempts) {
            return new Budget(attempts, null);
        }

        public static Budget lasting(Duration duration) {
            return new Budget(Long.MAX_VALUE, duration);
        }

        Duration patience() {
            return duration == null ? Duration.ofMinutes(2) : duration.plusMinutes(1);
        }
    }

    private Crowd() {
    }

    /** The buyer of attempt {@code n}: attempts 4k+3 repeat the buyer of 4k+2. */
    public static String buyerOf(long n) {
        return "b" + (n % 4 == 3 ? n - 1 : n);
    }

    public static RunResult run(InventoryStrategy strategy, SaleItem item, int clients, Budget budget) {
        Map<String, Long> countersBefore = strategy.counters();
        AtomicLong sequence = new AtomicLong();
        Map<String, Integer> unitsByBuyer = new ConcurrentHashMap<>();
        Map<Take, LongAdder> answers = new EnumMap<>(Take.class);
        for (Take take : Take.values()) {
            answers.put(take, new LongAdder());
        }
        AtomicReference<String> firstError = new AtomicReference<>();
        CountDownLatch start = new CountDownLatch(1);
        // Set just before the start signal (a time budget counts from the release of the crowd).
        AtomicLong deadlineNanos = new AtomicLong(Long.MAX_VALUE);
        List<Histogram> histograms = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            Histogram latencies = new Histogram(HIGHEST_MICROS, 3);
            histograms.add(latencies);
            threads.add(Thread.ofPlatform().name("crowd-" + c).start(() -> {
                await(start);
                long until = deadlineNanos.get();
                long n;
                while ((n = sequence.getAndIncrement()) < budget.attempts() && System.nanoTime() < until) {
                    String buyer = buyerOf(n);
                    long began = System.nanoTime();
                    Take take;
                    try {
                        take = strategy.take(item.sku(), buyer, QUANTITY);
                    } catch (RuntimeException e) {
                        take = Take.ERROR;
                        firstError.compareAndSet(null, e.toString());
                    }
                    latencies.recordValue(Math.min(HIGHEST_MICROS, (System.nanoTime() - began) / 1000));
                    answers.get(take).increment();
                    if (take == Take.TAKEN) {
                        unitsByBuyer.merge(buyer, QUANTITY, Integer::sum);
                    }
                }
            }));
        }
        long began = System.nanoTime();
        if (budget.duration() != null) {
            deadlineNanos.set(began + budget.duration().toNanos());
        }
        start.countDown();
        long patienceEnds = began + budget.patience().toNanos();
        for (Thread thread : threads) {
            join(thread, patienceEnds);
        }
        long elapsedNanos = System.nanoTime() - began;

        Histogram all = new Histogram(HIGHEST_MICROS, 3);
        histograms.forEach(all::add);
        Map<Take, Long> counts = new EnumMap<>(Take.class);
        answers.forEach((take, adder) -> counts.put(take, adder.sum()));
        long unitsTaken = unitsByBuyer.values().stream().mapToLong(Integer::longValue).sum();
        long limitViolations = unitsByBuyer.values().stream().filter(units -> units > item.perBuyerLimit()).count();
        return new RunResult(strategy.name(), clients, item.stock(), all.getTotalCount(),
                Duration.ofNanos(elapsedNanos), all.getValueAtPercentile(50), all.getValueAtPercentile(99),
                all.getValueAtPercentile(99.9), counts, unitsTaken, Math.max(0, unitsTaken - item.stock()),
                limitViolations, strategy.unitsLeft(item.sku()), difference(countersBefore, strategy.counters()),
                firstError.get());
    }

    private static Map<String, Long> difference(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> delta = new HashMap<>();
        after.forEach((name, value) -> delta.put(name, value - before.getOrDefault(name, 0L)));
        return delta;
    }

    private static void await(CountDownLatch start) {
        try {
            start.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void join(Thread thread, long patienceEnds) {
        try {
            long left = Math.max(1, (patienceEnds - System.nanoTime()) / 1_000_000);
            thread.join(left);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the crowd ran", e);
        }
        if (thread.isAlive()) {
            throw new IllegalStateException(thread.getName() + " still runs after the run's patience: a strategy hangs");
        }
    }
}
