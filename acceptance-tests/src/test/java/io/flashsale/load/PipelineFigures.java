package io.flashsale.load;

import io.flashsale.acceptance.inspect.ShopDatabase.Placement;
import org.HdrHistogram.Histogram;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The order pipeline's figures from the orders' own time stamps in MariaDB: orders placed per second, and the
 * latency from the hot store accepting a reservation to the order being placed. Both stamps come from the service's
 * clock, so no client or network time is in them.
 *
 * @param steadyFromMicros start of the steady window (load start + warm-up), epoch microseconds
 * @param steadyToMicros   end of the steady window (end of the load)
 */
record PipelineFigures(List<Placement> placements, long steadyFromMicros, long steadyToMicros) {

    private static final long MICROS_PER_SECOND = 1_000_000;

    /** Orders placed inside the steady window, per second of it. */
    double steadyOrdersPerSecond() {
        long inWindow = placements.stream().filter(p -> inSteadyWindow(p.placedAtEpochMicros())).count();
        return inWindow * (double) MICROS_PER_SECOND / (steadyToMicros - steadyFromMicros);
    }

    /** Orders placed in each whole second inside the steady window, by second. */
    Map<Long, Long> ordersPerSecond() {
        long firstSecond = Math.ceilDiv(steadyFromMicros, MICROS_PER_SECOND);
        long lastSecond = Math.floorDiv(steadyToMicros, MICROS_PER_SECOND);
        Map<Long, Long> counts = new TreeMap<>();
        for (long second = firstSecond; second < lastSecond; second++) {
            counts.put(second, 0L);
        }
        placements.stream()
                .map(p -> Math.floorDiv(p.placedAtEpochMicros(), MICROS_PER_SECOND))
                .filter(counts::containsKey)
                .collect(Collectors.groupingBy(second -> second, Collectors.counting()))
                .forEach(counts::put);
        return counts;
    }

    /** The latency of the orders whose reservations were accepted inside the steady window, in microseconds. */
    Histogram steadyLatency() {
        Histogram histogram = new Histogram(3);
        placements.stream()
                .filter(p -> inSteadyWindow(p.reservedAtEpochMicros()))
                .forEach(p -> histogram.recordValue(Math.max(0, p.latencyMicros())));
        return histogram;
    }

    /** Seconds from the end of the load to the last order placed: how far behind the pipeline was. */
    double drainSeconds() {
        long last = placements.stream().mapToLong(Placement::placedAtEpochMicros).max().orElse(steadyToMicros);
        return Math.max(0, last - steadyToMicros) / (double) MICROS_PER_SECOND;
    }

    /** Orders placed after the load ended, per second until the last one: the pipeline's pace on a quiet service. */
    String backlogDrain() {
        long after = placements.stream().filter(p -> p.placedAtEpochMicros() >= steadyToMicros).count();
        double seconds = drainSeconds();
        if (after < 2 || seconds <= 0) {
            return "no backlog after the load: the pipeline kept up";
        }
        return format("backlog after the load: %d orders placed in %.2f s, %.1f orders/s", after, seconds,
                after / seconds);
    }

    List<String> lines() {
        Map<Long, Long> perSecond = ordersPerSecond();
        Histogram latency = steadyLatency();
        return List.of(
                "orders placed in MariaDB: " + placements.size(),
                format("orders/s into MariaDB over the steady window (%.0f s): %.1f",
                        (steadyToMicros - steadyFromMicros) / (double) MICROS_PER_SECOND, steadyOrdersPerSecond()),
                "orders in each whole second of the steady window: min " + min(perSecond) + ", max "
                        + max(perSecond),
                format("last order placed %.2f s after the load ended", drainSeconds()),
                backlogDrain(),
                "reservation-to-order latency (accepted in Redis -> order placed in MariaDB), " + latency.getTotalCount()
                        + " orders of the steady window:",
                format("  p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms",
                        millis(latency.getValueAtPercentile(50)), millis(latency.getValueAtPercentile(90)),
                        millis(latency.getValueAtPercentile(99)), millis(latency.getMaxValue())));
    }

    private boolean inSteadyWindow(long epochMicros) {
        return epochMicros >= steadyFromMicros && epochMicros < steadyToMicros;
    }

    private static long min(Map<Long, Long> counts) {
        return counts.values().stream().mapToLong(Long::longValue).min().orElse(0);
    }

    private static long max(Map<Long, Long> counts) {
        return counts.values().stream().mapToLong(Long::longValue).max().orElse(0);
    }

    static double millis(long micros) {
        return micros / 1000.0;
    }

    static String format(String pattern, Object... values) {
        return String.format(Locale.ROOT, pattern, values);
    }
}
