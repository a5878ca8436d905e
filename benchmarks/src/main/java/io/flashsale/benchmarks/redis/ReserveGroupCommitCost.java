package io.flashsale.benchmarks.redis;

import io.flashsale.adapter.redis.RedisHotStore;
import io.flashsale.adapter.redis.RedisKeys;
import io.flashsale.adapter.redis.RedisRequestIndex;
import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one reservation costs Redis's own CPU with and without group commit (ADR 0068): the production adapter
 * ({@link RedisHotStore#stockReservations(int)}, the window judged by Redis TIME), {@code threads} threads reserving
 * one unit each as fresh buyers on one big sale for {@code seconds}, once per batch bound; Redis's
 * {@code used_cpu_user + used_cpu_sys} before and after, divided by the reservations made. Bound 1 is one call per
 * attempt, as before ADR 0068. Also the EVALSHA calls (INFO commandstats, server-wide), the attempts each carried and
 * the microseconds Redis spent inside the script per reservation, and below each row the commands the script called per
 * reservation with their microseconds (commandstats counts a script's commands too; their time is part of the
 * script's). The sale's keys are deleted afterwards.
 * <p>
 * Arguments: host port seconds threads bounds (comma-separated, e.g. {@code 1,64,128}).
 */
public final class ReserveGroupCommitCost {

    private ReserveGroupCommitCost() {
    }

    public static void main(String[] args) throws Exception {
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        int seconds = Integer.parseInt(args[2]);
        int threads = Integer.parseInt(args[3]);
        String registry = "fs:outbox:activities:cost-" + UUID.randomUUID();
        RedisClient client = RedisClient.create("redis://" + host + ":" + port);
        try (StatefulRedisConnection<String, String> info = client.connect();
             RedisHotStore store = RedisHotStore.connect(
                     new RedisHotStore.Settings(host, port, null, 0, Duration.ofSeconds(10)), registry, true)) {
            System.out.printf("%-6s %10s %12s %10s %12s %16s %18s%n", "bound", "reserved", "per second", "calls",
                    "per call", "CPU us/reserve", "script us/reserve");
            for (String bound : args[4].split(",")) {
                int maxBatch = Integer.parseInt(bound.trim());
                ActivityId sale = new ActivityId("cost-" + UUID.randomUUID().toString().substring(0, 8));
                StockReservationPort stock = store.stockReservations(maxBatch);
                Instant now = Instant.now();
                stock.warmUp(new Activity(sale, "cost", now.minusSeconds(60), now.plus(Duration.ofHours(1)),
                        PurchaseLimit.ONE, Activity.DEFAULT_PAYMENT_TIMEOUT,
                        List.of(new ActivityItem(new SkuId("unit"), 1_000_000_000L, null, 1))));
                double cpuBefore = cpuSeconds(info.sync());
                long[] scriptsBefore = evalsha(info.sync());
                Map<String, long[]> commandsBefore = commandStats(info.sync());
                long started = System.nanoTime();
                long reserved = reserveFor(stock, sale, seconds, threads);
                double elapsed = (System.nanoTime() - started) / 1e9;
                double cpuMicros = (cpuSeconds(info.sync()) - cpuBefore) * 1e6;
                long[] scriptsAfter = evalsha(info.sync());
                long calls = scriptsAfter[0] - scriptsBefore[0];
                System.out.printf("%-6d %10d %12.0f %10d %12.1f %16.2f %18.2f%n", maxBatch, reserved,
                        reserved / elapsed, calls, reserved / (double) calls, cpuMicros / reserved,
                        (scriptsAfter[1] - scriptsBefore[1]) / (double) reserved);
                printCommands(commandsBefore, commandStats(info.sync()), reserved);
                info.sync().del(RedisRequestIndex.saleKeys(info.sync(), sale).toArray(String[]::new));
            }
            info.sync().del(registry);
        } finally {
            client.shutdown();
        }
    }

    private static long reserveFor(StockReservationPort stock, ActivityId sale, int seconds, int threads)
            throws Exception {
        AtomicLong reserved = new AtomicLong();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                workers.add(pool.submit(() -> {
                    while (System.nanoTime() < until) {
                        String token = UUID.randomUUID().toString().replace("-", "");
                        ReservationOutcome outcome = stock.reserve(new ReservationRequest(ReservationId.of(sale, token),
                                new BuyerId("b" + token), new RequestId("r" + token),
                                List.of(new ReservationLine(new SkuId("unit"), 1)), Instant.now()));
                        if (outcome instanceof ReservationOutcome.Reserved) {
                            reserved.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> worker : workers) {
                worker.get(seconds + 60L, TimeUnit.SECONDS);
            }
        }
        return reserved.get();
    }

    /** Each command's calls and microseconds over the run per reservation, the scripts and INFO itself aside. */
    private static void printCommands(Map<String, long[]> before, Map<String, long[]> after, long reserved) {
        var line = new StringBuilder("       per reservation:");
        after.forEach((command, totals) -> {
            long[] earlier = before.getOrDefault(command, new long[2]);
            long calls = totals[0] - earlier[0];
            if (calls > 0 && !command.equals("evalsha") && !command.equals("eval") && !command.equals("info")) {
                line.append(String.format(" %s %.2f (%.2f us)", command, calls / (double) reserved,
                        (totals[1] - earlier[1]) / (double) reserved));
            }
        });
        System.out.println(line);
    }

    /** Every command's calls and microseconds so far (INFO commandstats), by name. */
    private static Map<String, long[]> commandStats(RedisCommands<String, String> redis) {
        Map<String, long[]> stats = new TreeMap<>();
        for (String line : redis.info("commandstats").lines().toList()) {
            if (line.startsWith("cmdstat_")) {
                stats.put(line.substring("cmdstat_".length(), line.indexOf(':')),
                        new long[]{ScriptCost.field(line, "calls"), ScriptCost.field(line, "usec")});
            }
        }
        return stats;
    }

    /** Redis's EVALSHA calls so far and the microseconds it spent in them (INFO commandstats). */
    private static long[] evalsha(RedisCommands<String, String> redis) {
        for (String line : redis.info("commandstats").lines().toList()) {
            if (line.startsWith("cmdstat_evalsha:")) {
                return new long[]{ScriptCost.field(line, "calls"), ScriptCost.field(line, "usec")};
            }
        }
        return new long[]{0, 0};
    }

    /** Redis's CPU time so far, user and system, in seconds. */
    private static double cpuSeconds(RedisCommands<String, String> redis) {
        double total = 0;
        for (String line : redis.info("cpu").lines().toList()) {
            if (line.startsWith("used_cpu_user:") || line.startsWith("used_cpu_sys:")) {
                total += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return total;
    }
}
