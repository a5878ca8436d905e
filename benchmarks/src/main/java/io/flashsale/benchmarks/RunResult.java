package io.flashsale.benchmarks;

import java.time.Duration;
import java.util.Map;

/**
 * One strategy, one crowd size, one stock: what the crowd measured and what it found in the books.
 *
 * @param oversold        units handed out beyond the stock (the crowd's books)
 * @param limitViolations buyers who got more units than the per-buyer limit
 * @param unitsLeft       what the store itself says is left at the end (negative: it oversold)
 * @param counters        what the strategy saw beside the answers during this run (retries, deadlocks, ...)
 */
public record RunResult(String strategy, int clients, long stock, long attempts, Duration elapsed,
                        long p50Micros, long p99Micros, long p999Micros, Map<Take, Long> answers, long unitsTaken,
                        long oversold, long limitViolations, long unitsLeft, Map<String, Long> counters,
                        String firstError) {

    public double throughput() {
        return attempts / (elapsed.toNanos() / 1e9);
    }

    public long count(Take take) {
        return answers.getOrDefault(take, 0L);
    }
}
