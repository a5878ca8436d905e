package io.flashsale.load;

import io.flashsale.acceptance.api.FlashsaleApi;
import io.flashsale.acceptance.inspect.HotStore;
import io.flashsale.testsupport.ServiceProcess;
import org.HdrHistogram.Histogram;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

import static io.flashsale.load.PipelineFigures.format;

/**
 * The flash sale's worst minute for the pipeline: a whole backlog of accepted reservations at once, then all their
 * payment deadlines at once. A first service process accepts {@code backlog} reservations with its relay off, so
 * they wait in the Redis outbox as they would behind a stalled pipeline, and stops; a second one starts with the relay
 * on, and the clock runs from its start until every reservation is an order (relay, broker, consumer and MySQL all in
 * the figure). Nobody pays, so every order comes due within the drain's span; the scenario then waits until all of
 * them are EXPIRED with their units back in MySQL and Redis, and reports each order's lateness past its deadline.
 */
final class BacklogScenario {

    private static final Duration POLL = Duration.ofMillis(250);
    private static final int FILL_WORKERS = 48;

    private final LoadSettings settings;
    private final FlashsaleApi api;
    private final BacklogBooks books;
    private final HotStore hotStore;
    private final String sku;

    BacklogScenario(LoadSettings settings, FlashsaleApi api, BacklogBooks books, HotStore hotStore, String sku) {
        this.settings = settings;
        this.api = api;
        this.books = books;
        this.hotStore = hotStore;
        this.sku = sku;
    }

    /**
     * @param launch   starts a service process with these extra properties, logging into the named file
     * @param openSale opens a sale of the given stock and payment timeout, returns its id
     */
    List<String> run(BiFunction<Map<String, String>, String, ServiceProcess> launch,
                     BiFunction<Long, Integer, String> openSale, String buyerPrefix) {
        List<String> lines = new ArrayList<>();
        String saleId;
        BacklogFill fill = new BacklogFill();
        double fillSeconds;
        try (ServiceProcess filler = launch.apply(Map.of("flashsale.relay.enabled", "false"), "service-fill.log")) {
            saleId = openSale.apply(settings.stock(), settings.paymentTimeoutSeconds());
            System.out.printf("[load] filling a backlog of %d reservations in sale %s (relay off)%n",
                    settings.backlog(), saleId);
            fillSeconds = fill.fill(api, saleId, sku, buyerPrefix, settings.backlog(), FILL_WORKERS);
            filler.stop(Duration.ofSeconds(60));
        }
        long accepted = fill.accepted();
        lines.add("=== Flashsale order pipeline: a backlog drained, then expired ===");
        lines.add(format("backlog: %d accepted (202) of %d sent in %.1f s by %d buyers at once (%.0f/s), relay off;"
                + " other answers %s", accepted, settings.backlog(), fillSeconds, FILL_WORKERS,
                settings.backlog() / fillSeconds, fill.otherOutcomes()));
        lines.add("load average after the fill: " + MachineFacts.loadAverageNow());

        System.out.println("[load] starting the draining service");
        long startedNanos = System.nanoTime();
        long startedMicros = nowMicros();
        try (ServiceProcess drainer = launch.apply(Map.of(), "service.log")) {
            long readyMicros = nowMicros();
            Map<String, Long> serverBefore = books.serverCounters();
            Drain drain = awaitDrain(drainer.managementPort(), saleId, accepted, startedNanos);
            Map<String, Long> serverAfter = books.serverCounters();
            List<Long> placed = books.placedAt(saleId);
            long first = placed.stream().mapToLong(Long::longValue).min().orElse(readyMicros);
            long last = placed.stream().mapToLong(Long::longValue).max().orElse(readyMicros);
            lines.add(format("service start to ready: %.1f s", (readyMicros - startedMicros) / 1e6));
            lines.add(format("orders placed: %d of %d accepted%s", placed.size(), accepted,
                    placed.size() < accepted ? " (NOT DRAINED within " + settings.drainSeconds() + " s)" : ""));
            lines.add(format("drain: first order %.2f s after ready, last %.2f s after ready", (first - readyMicros) / 1e6,
                    (last - readyMicros) / 1e6));
            lines.add(format("DRAIN RATE first to last order: %.0f orders/s; from ready to last order: %.0f orders/s",
                    placed.size() / Math.max(1e-6, (last - first) / 1e6),
                    placed.size() / Math.max(1e-6, (last - readyMicros) / 1e6)));
            lines.add(format("relay: all %d entries acknowledged by the broker %.2f s after ready (%.0f/s)", accepted,
                    drain.relayedSeconds, accepted / Math.max(1e-6, drain.relayedSeconds)));
            lines.add("orders placed per second while draining (every second after ready): " + drain.perSecond);
            lines.add("load average after the drain: " + MachineFacts.loadAverageNow());
            lines.add("MariaDB during the drain (server-wide counters, so other clients count too): "
                    + deltas(serverBefore, serverAfter) + format(" = %.2f log fsyncs and %.2f row lock waits per 1000"
                    + " orders", 1000.0 * delta(serverBefore, serverAfter, "Innodb_os_log_fsyncs") / Math.max(1, accepted),
                    1000.0 * delta(serverBefore, serverAfter, "Innodb_row_lock_waits") / Math.max(1, accepted)));
            ServiceScrape afterDrain = ServiceScrape.read(drainer.managementPort(), OrderPipelineLoadHarness.ADMIN_TOKEN);
            lines.addAll(HarnessReport.pipelineCounters(afterDrain));

            System.out.println("[load] waiting for every order to expire");
            lines.addAll(awaitExpiry(saleId, placed.size()));
            lines.add("load average after the expiry: " + MachineFacts.loadAverageNow());
            // A clean stop, so a JFR recording (flashsale.load.jfr) is written.
            drainer.stop(Duration.ofSeconds(60));
        }
        return lines;
    }

    private static long delta(Map<String, Long> before, Map<String, Long> after, String name) {
        return after.getOrDefault(name, 0L) - before.getOrDefault(name, 0L);
    }

    private static String deltas(Map<String, Long> before, Map<String, Long> after) {
        StringBuilder text = new StringBuilder();
        for (String name : BacklogBooks.SERVER_COUNTERS) {
            text.append(text.isEmpty() ? "" : ", ").append(name).append(' ').append(delta(before, after, name));
        }
        return text.toString();
    }

    private record Drain(double relayedSeconds, List<Long> perSecond) {
    }

    private Drain awaitDrain(int managementPort, String saleId, long accepted, long startedNanos) {
        long deadline = System.nanoTime() + Duration.ofSeconds(settings.drainSeconds()).toNanos();
        double relayedSeconds = Double.NaN;
        long readyNanos = System.nanoTime();
        List<Long> perSecond = new ArrayList<>();
        long lastCount = 0;
        long nextSecond = readyNanos + 1_000_000_000L;
        long placed = 0;
        while (placed < accepted && System.nanoTime() < deadline) {
            OrderPipelineLoadHarness.sleep(POLL);
            placed = ordersPlaced(saleId);
            if (Double.isNaN(relayedSeconds)
                    && ServiceScrape.read(managementPort, OrderPipelineLoadHarness.ADMIN_TOKEN).sum("flashsale_relay_relayed_total") >= accepted) {
                relayedSeconds = (System.nanoTime() - readyNanos) / 1e9;
            }
            if (System.nanoTime() >= nextSecond) {
                perSecond.add(placed - lastCount);
                lastCount = placed;
                nextSecond += 1_000_000_000L;
            }
        }
        if (Double.isNaN(relayedSeconds)) {
            relayedSeconds = (System.nanoTime() - readyNanos) / 1e9;
        }
        perSecond.add(placed - lastCount);
        return new Drain(relayedSeconds, perSecond);
    }

    private long ordersPlaced(String saleId) {
        Map<String, Long> counts = books.statusCounts(saleId);
        return counts.values().stream().mapToLong(Long::longValue).sum() - counts.getOrDefault("FAILED", 0L);
    }

    private List<String> awaitExpiry(String saleId, long orders) {
        long lastDeadline = books.lastDeadline(saleId);
        long patience = System.nanoTime()
                + Duration.ofSeconds(settings.paymentTimeoutSeconds() + settings.drainSeconds()).toNanos();
        Map<String, Long> counts = new HashMap<>();
        long redisBackMicros = 0;
        long databaseDoneMicros = 0;
        while (System.nanoTime() < patience && (redisBackMicros == 0 || databaseDoneMicros == 0)) {
            OrderPipelineLoadHarness.sleep(POLL);
            counts = books.statusCounts(saleId);
            if (databaseDoneMicros == 0 && counts.getOrDefault("EXPIRED", 0L) == orders && books.sold(saleId) == 0) {
                databaseDoneMicros = nowMicros();
            }
            HotStore.Counters redis = hotStore.counters(saleId, sku);
            if (redisBackMicros == 0 && databaseDoneMicros != 0 && redis.reserved() == 0 && redis.sold() == 0
                    && books.restoresOwedToRedis(saleId) == 0) {
                redisBackMicros = nowMicros();
            }
        }
        Histogram lateness = new Histogram(3);
        List<long[]> expiries = books.expiries(saleId);
        expiries.forEach(e -> lateness.recordValue(Math.max(0, e[1] - e[0])));
        HotStore.Counters redis = hotStore.counters(saleId, sku);
        List<String> lines = new ArrayList<>();
        lines.add(format("expiry: %d of %d orders EXPIRED; statuses %s; MySQL sold %d, Redis reserved %d sold %d,"
                        + " restores owed to Redis %d", expiries.size(), orders, counts, books.sold(saleId),
                redis.reserved(), redis.sold(), books.restoresOwedToRedis(saleId)));
        lines.add(format("EXPIRY LATENESS past each order's deadline (MySQL expired_at - payment_due_at): p50 %.0f ms,"
                        + " p99 %.0f ms, max %.0f ms", lateness.getValueAtPercentile(50) / 1e3,
                lateness.getValueAtPercentile(99) / 1e3, lateness.getMaxValue() / 1e3));
        lines.add(databaseDoneMicros == 0 ? "MySQL: NOT all expired within the patience"
                : format("MySQL: all expired and sold = 0 by %.1f s after the last deadline (poll every %d ms)",
                (databaseDoneMicros - lastDeadline) / 1e6, POLL.toMillis()));
        lines.add(redisBackMicros == 0 ? "Redis: units NOT all back within the patience"
                : format("Redis: every unit back (reserved 0, sold 0, no restore owed) by %.1f s after the last deadline",
                (redisBackMicros - lastDeadline) / 1e6));
        return lines;
    }

    private static long nowMicros() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }
}
