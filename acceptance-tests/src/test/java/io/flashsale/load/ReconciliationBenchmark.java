package io.flashsale.load;

import io.flashsale.adapter.redis.RedisActivityArchive;
import io.flashsale.adapter.redis.RedisHotStore;
import io.flashsale.adapter.redis.RedisHotStoreRebuild;
import io.flashsale.adapter.redis.RedisHotStoreReconciliation;
import io.flashsale.adapter.redis.RedisKeys;
import io.flashsale.adapter.redis.RedisRelayedEvents;
import io.flashsale.adapter.redis.RedisRequestIndex;
import io.flashsale.adapter.redis.RedisStockReservationAdapter;
import io.flashsale.adapter.redis.ReservationRecord;
import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.application.order.port.out.EventPosition;
import io.flashsale.application.order.port.out.OutboxEntry;
import io.flashsale.application.reconciliation.port.out.HotStoreSnapshot;
import io.flashsale.application.reconciliation.port.out.RebuildStart;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reconciliation.HotSkuSnapshot;
import io.flashsale.domain.reconciliation.LedgerRepair;
import io.flashsale.domain.reconciliation.SkuRebuild;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.testsupport.RedisServerProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The safety net's benchmark at flash-sale scale (not a test: it asserts nothing and no build runs it). Starts a Redis
 * of its own on a free port (so its SLOWLOG holds only this run), builds a sale holding {@code reservations}
 * reservations directly in Redis (990 of each 1000 ORDERED, the rest RESERVED with their outbox entries unread), then
 * offers reservations from new buyers for a warm-up phase (not counted) and {@code cycles} pairs of phases of equal
 * length, quiet and with the background work looping (the reconciliation look, the rolling audit's slice of holdings,
 * a stale repair, the archive's checks), so that the machine's drifting load shows between neighbouring quiet phases.
 * Prints each phase's reservation p50/p99/p999 with the CPU this JVM, the passes' thread and Redis spent in it, each
 * background phase's p99 against the quiet phases around it, the slowest command of each kind in SLOWLOG, and the load
 * average; then a phase with rebuilds of lost sales, and finally times rebuilds alone per page size. The threads run
 * closed loop (Redis at saturation, the worst case for a queue) unless {@code -Dflashsale.bench.rate} (per second) or
 * {@code -Dflashsale.bench.rate-share} (a share of the warm-up's closed-loop throughput) sets an open-loop rate.
 *
 * <p>Run from the repository root (the PATH's {@code redis-server}, else the packaged one):
 * <pre>
 * ./mvnw -pl acceptance-tests -am test-compile -DskipTests
 * ./mvnw -pl acceptance-tests exec:exec@reconciliation-benchmark -Dflashsale.bench.reservations=1000000
 * </pre>
 */
public final class ReconciliationBenchmark {

    private static final SkuId SKU = new SkuId("ticket");
    private static final String REGISTRY = "fs:outbox:activities:benchmark";
    private static final int WRITE_BATCH = 500;
    private static final long SLOWLOG_FROM_MICROS = 1000;

    /** PausePort between background passes (0: back to back, the worst case; the schedule's is a minute). */
    private static int PASS_PAUSE_MILLIS;
    /** Reconciliation's read pace (ADR 64): after each page of a pass a pause this many times as long as the page. */
    private static double READ_PACE;
    /** Quiet and background phases, alternating: each pair is one cycle. */
    private static int CYCLES;
    /**
     * Reservations offered per second in the measured phases, spread evenly over the threads (open loop, latency from
     * each request's scheduled instant, so a stall counts against every request it delays); 0: closed loop, each
     * thread sends its next request as soon as the last is answered, which holds Redis at saturation.
     */
    private static double OFFERED_RATE;
    /** Pages of holdings the rolling audit reads per pass (ADR 59), as the service's default. */
    private static final int AUDIT_PAGES = 50;

    private ReconciliationBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int reservations = Integer.getInteger("flashsale.bench.reservations", 1_000_000);
        int seconds = Integer.getInteger("flashsale.bench.seconds", 15);
        int buyers = Integer.getInteger("flashsale.bench.threads", 8);
        int rebuildHoldings = Integer.getInteger("flashsale.bench.rebuild-holdings", 100_000);
        PASS_PAUSE_MILLIS = Integer.getInteger("flashsale.bench.pass-pause-ms", 0);
        CYCLES = Integer.getInteger("flashsale.bench.cycles", 4);
        READ_PACE = Double.parseDouble(System.getProperty("flashsale.bench.read-pace", "0"));
        OFFERED_RATE = Double.parseDouble(System.getProperty("flashsale.bench.rate", "0"));
        RedisServerProcess server = RedisServerProcess.onFreePort(RedisServerProcess.Persistence.NONE,
                "--slowlog-log-slower-than", Long.toString(SLOWLOG_FROM_MICROS), "--slowlog-max-len", "100000",
                "--enable-debug-command", "yes").start();
        int port = server.port();
        if (Boolean.getBoolean("flashsale.bench.redis-realtime")) {
            givePriority(server.pid());
        }
        RedisClient client = RedisClient.create(server.uri());
        try {
            StatefulRedisConnection<String, String> connection = connect(client);
            RedisHotStore store = RedisHotStore.connect(new RedisHotStore.Settings("127.0.0.1", port, null, 0,
                    Duration.ofSeconds(5), List.of()), REGISTRY);
            try {
                run(connection, store, reservations, seconds, buyers, rebuildHoldings);
            } finally {
                store.close();
                connection.close();
            }
        } finally {
            client.shutdown();
            server.close();
        }
    }

    private static void run(StatefulRedisConnection<String, String> connection, RedisHotStore store, int reservations,
                            int seconds, int threads, int rebuildHoldings) throws Exception {
        RedisCommands<String, String> redis = connection.sync();
        var stock = new RedisStockReservationAdapter(connection, REGISTRY);
        var hotStore = new RedisHotStoreReconciliation(connection, READ_PACE);
        var rebuild = new RedisHotStoreRebuild(connection, REGISTRY);
        var relayed = new RedisRelayedEvents(connection);
        System.out.printf("reconciliation's read pace: %s%n", READ_PACE);
        var archive = new RedisActivityArchive(connection, REGISTRY);
        Map<String, String> scriptNames = scriptNames(redis);
        Instant now = Instant.now();
        Activity sale = sale(new ActivityId("bench-sale"), now, 2L * reservations + 10_000_000L);
        // The request index is spread over small hashes (ADR 0100): none of them grows into a big table.
        GROWING = List.of(RedisKeys.reservations(sale.id()), RedisKeys.holdings(sale.id()));
        stock.warmUp(sale);
        long setUp = System.nanoTime();
        fill(connection, sale.id(), reservations);
        System.out.printf("set-up: %,d reservations in Redis in %.1f s (used_memory %s)%n", reservations,
                (System.nanoTime() - setUp) / 1e9, memory(redis));
        // The set-up's reservations in flight stay unread; the new ones flow through the pipeline, as in a live sale.
        redis.xgroupCreate(XReadArgs.StreamOffset.from(RedisKeys.outbox(sale.id()), "$"), RedisKeys.OUTBOX_GROUP);
        AtomicBoolean stopPipeline = new AtomicBoolean();
        Thread pipeline = pipeline(store, sale.id(), stopPipeline);

        // The warm-up runs closed loop. Its first half runs the background passes too, so that the JIT has compiled
        // them before any phase counts; its second half's throughput is the saturation rate an offered share is of.
        Background warming = new Background(hotStore, relayed, archive, sale.id());
        warming.start();
        reserveFor(stock, sale.id(), seconds / 2, threads, "warm", 0);
        warming.stop();
        int unpaced = seconds - seconds / 2;
        double saturation = reserveFor(stock, sale.id(), unpaced, threads, "warm2", 0).length / (double) unpaced;
        double share = Double.parseDouble(System.getProperty("flashsale.bench.rate-share", "0"));
        if (share > 0) {
            OFFERED_RATE = share * saturation;
        }
        System.out.printf("warm-up, closed loop: %,.0f reservations/s; measured phases: %s%n", saturation,
                OFFERED_RATE > 0 ? String.format("open loop, %,.0f offered/s (%.0f%% of that)", OFFERED_RATE,
                        100 * OFFERED_RATE / saturation) : "closed loop");
        // Quiet and background phases alternate, CYCLES times, so that a drift of the machine's load over the run
        // shows as a difference between neighbouring quiet phases, not as the cost of the background work.
        List<Phase> phases = new ArrayList<>();
        for (int cycle = 1; cycle <= CYCLES; cycle++) {
            String quietTokens = "q" + cycle;
            String busyTokens = "b" + cycle;
            phases.add(phase("quiet " + cycle, redis,
                    () -> reserveFor(stock, sale.id(), seconds, threads, quietTokens), null));
            Background work = new Background(hotStore, relayed, archive, sale.id());
            phases.add(phase("with passes " + cycle, redis,
                    () -> reserveFor(stock, sale.id(), seconds, threads, busyTokens), work));
        }
        // A last quiet phase, so that every background phase has a quiet one on either side.
        phases.add(phase("quiet " + (CYCLES + 1), redis,
                () -> reserveFor(stock, sale.id(), seconds, threads, "q" + (CYCLES + 1)), null));

        // Rebuilds of other, lost sales (rebuildHoldings orders each, in pages) while reservations flow.
        redis.slowlogReset();
        AtomicBoolean stopRebuilds = new AtomicBoolean();
        AtomicLong rebuilds = new AtomicLong();
        AtomicLong rebuildMillis = new AtomicLong();
        Thread rebuilder = Thread.ofPlatform().name("rebuild-work").start(() -> {
            for (int n = 0; !stopRebuilds.get(); n++) {
                Activity lost = sale(new ActivityId("bench-lost-" + n), Instant.now(), rebuildHoldings);
                long start = System.nanoTime();
                rebuildInPages(rebuild, lost, rebuildHoldings);
                rebuildMillis.addAndGet((System.nanoTime() - start) / 1_000_000);
                rebuilds.incrementAndGet();
                redis.unlink(RedisRequestIndex.saleKeys(redis, lost.id()).toArray(String[]::new));
            }
        });
        long[] rebuilding = reserveFor(stock, sale.id(), seconds, threads, "rb");
        stopRebuilds.set(true);
        rebuilder.join();
        List<Object> slowRebuilding = redis.slowlogGet(100_000);
        stopPipeline.set(true);
        pipeline.join();
        System.out.printf("in flight at the end: %,d in the index, %,d held by the pipeline's last batch%n",
                redis.hlen(RedisKeys.inFlight(sale.id())), PIPELINE_BATCH);

        System.out.println();
        System.out.println("reservation latency (ms), " + threads + " threads, " + seconds + " s per phase, "
                + (OFFERED_RATE > 0 ? String.format("open loop at %,.0f/s (from each request's due instant)",
                OFFERED_RATE) : "closed loop") + "; CPU seconds"
                + " in the phase: this JVM (reservations, pipeline and passes), the passes' thread alone, Redis:");
        phases.forEach(Phase::print);
        print("with rebuilds", rebuilding);
        System.out.printf("rebuilds of %,d orders while reservations flowed: %d (%.1f s each on average)%n",
                rebuildHoldings, rebuilds.get(), rebuilds.get() == 0 ? 0 : rebuildMillis.get() / 1000.0 / rebuilds.get());
        summary(phases);
        System.out.println();
        System.out.println("SLOWLOG (commands of " + SLOWLOG_FROM_MICROS + " us or more), slowest per command, with"
                + " the slowest one's first arguments; * = sent by the background passes:");
        for (Phase phase : phases) {
            printSlowlog(phase.name, phase.slowlog, scriptNames);
        }
        printSlowlog("with rebuilds", slowRebuilding, scriptNames);

        // The bounded rebuild alone, once per page size, every command logged: what LedgerRebuild.PAGE trades.
        String rebuildPageSha = LuaScript.load(redis, "rebuild_page").sha();
        redis.configSet("slowlog-log-slower-than", "0");
        System.out.println();
        for (String size : System.getProperty("flashsale.bench.rebuild-pages", "50,100,200,400").split(",")) {
            int pageSize = Integer.parseInt(size.trim());
            Activity lost = sale(new ActivityId("bench-lost-" + pageSize), now, rebuildHoldings);
            redis.slowlogReset();
            long start = System.nanoTime();
            int pages = rebuildInPages(rebuild, lost, rebuildHoldings, pageSize);
            double millis = (System.nanoTime() - start) / 1e6;
            long[] steps = durations(redis.slowlogGet(100_000), rebuildPageSha);
            System.out.printf("bounded rebuild of %,d orders in %,d pages of %d: %.0f ms end to end; rebuild_page.lua"
                    + " p50 %.3f p99 %.3f max %.3f ms (%d logged)%n", rebuildHoldings, pages, pageSize, millis,
                    at(steps, 0.5), at(steps, 0.99), steps.length == 0 ? 0 : steps[steps.length - 1] / 1e6,
                    steps.length);
            redis.unlink(RedisRequestIndex.saleKeys(redis, lost.id()).toArray(String[]::new));
        }
        redis.configSet("slowlog-log-slower-than", Long.toString(SLOWLOG_FROM_MICROS));
        System.out.println();
        System.out.println("load average (1, 5, 15 min): " + Files.readString(Path.of("/proc/loadavg")).trim());
        System.out.println("cores: " + Runtime.getRuntime().availableProcessors() + ", Redis " + version(redis));
    }

    /** What a phase's reservations are made by. */
    private interface Reservations {
        long[] run() throws InterruptedException;
    }

    /** One phase: its latencies (sorted, ns), CPU spent meanwhile, and the SLOWLOG it left. */
    private record Phase(String name, long[] latencies, double jvmCpu, double passCpu, double redisCpu, long passes,
                         double passSeconds, String load, List<Object> slowlog, Set<String> resizing) {

        void print() {
            System.out.printf("  %-22s n=%,9d  p50 %6.3f  p99 %6.3f  p999 %6.3f  max %7.3f  cpu jvm %5.1f passes %5.1f"
                            + " redis %5.1f  %s%s%n", name, latencies.length, at(latencies, 0.50),
                    at(latencies, 0.99), at(latencies, 0.999), latencies[latencies.length - 1] / 1e6, jvmCpu,
                    passCpu, redisCpu, passes == 0 ? "" : passes + " passes of " + String.format("%.3f s, ",
                            passSeconds / passes), "load " + load
                            + (resizing.isEmpty() ? "" : ", Redis moving to a bigger table: " + resizing));
        }

        double p99() {
            return at(latencies, 0.99);
        }
    }

    /** Runs one phase, with the background work looping meanwhile when {@code work} is given. */
    private static Phase phase(String name, RedisCommands<String, String> redis, Reservations reservations,
                               Background work) throws Exception {
        redis.slowlogReset();
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean();
        long jvmBefore = os.getProcessCpuTime();
        double redisBefore = redisCpu(redis);
        Set<String> resizing = new TreeSet<>(resizing(redis));
        if (work != null) {
            work.start();
        }
        long[] latencies = reservations.run();
        if (work != null) {
            work.stop();
        }
        double jvm = (os.getProcessCpuTime() - jvmBefore) / 1e9;
        double redisSpent = redisCpu(redis) - redisBefore;
        String load = Files.readString(Path.of("/proc/loadavg")).trim().split(" ")[0];
        resizing.addAll(resizing(redis));
        return new Phase(name, latencies, jvm, work == null ? 0 : work.cpuNanos.get() / 1e9, redisSpent,
                work == null ? 0 : work.passes.get(), work == null ? 0 : work.passNanos.get() / 1e9, load,
                redis.slowlogGet(100_000), resizing);
    }

    /** The sale's big hashes, by their keys' last part, that Redis is moving to a bigger table right now. */
    private static List<String> resizing(RedisCommands<String, String> redis) {
        return GROWING.stream().filter(key -> tableStats(redis, key).contains("rehashing target"))
                .map(key -> key.substring(key.lastIndexOf(':') + 1)).toList();
    }

    /** The sale's hashes that grow with every reservation: the records, the holdings, the request index. */
    private static List<String> GROWING = List.of();

    /** Seconds of CPU the Redis server spent so far, user and system. */
    private static double redisCpu(RedisCommands<String, String> redis) {
        double seconds = 0;
        for (String line : redis.info("cpu").lines().toList()) {
            if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
                seconds += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return seconds;
    }

    /**
     * The background work of one reconciliation pass, looping: the paged look of ADR 43, the rolling audit's slice of
     * holdings (ADR 59), a stale repair (it answers RETRY) and the archive's checks. Its thread's CPU time is counted.
     */
    private static final class Background {

        private final RedisHotStoreReconciliation hotStore;
        private final RedisRelayedEvents relayed;
        private final RedisActivityArchive archive;
        private final ActivityId sale;
        private final AtomicBoolean stop = new AtomicBoolean();
        final AtomicLong passes = new AtomicLong();
        final AtomicLong passNanos = new AtomicLong();
        final AtomicLong cpuNanos = new AtomicLong();
        private Thread thread;

        Background(RedisHotStoreReconciliation hotStore, RedisRelayedEvents relayed, RedisActivityArchive archive,
                   ActivityId sale) {
            this.hotStore = hotStore;
            this.relayed = relayed;
            this.archive = archive;
            this.sale = sale;
        }

        void start() {
            thread = Thread.ofPlatform().name("background-work").start(() -> {
                var threads = java.lang.management.ManagementFactory.getThreadMXBean();
                long cpuBefore = threads.getCurrentThreadCpuTime();
                while (!stop.get()) {
                    long start = System.nanoTime();
                    HotStoreSnapshot snapshot = hotStore.snapshot(sale).orElseThrow();
                    HotSkuSnapshot look = snapshot.sku(SKU).orElseThrow();
                    hotStore.auditHoldings(sale, look, AUDIT_PAGES);
                    passNanos.addAndGet(System.nanoTime() - start);
                    hotStore.repair(sale, new LedgerRepair(SKU, look.figures(), Map.of(), Set.of(),
                            HotSkuSnapshot.MOVING, 4, 1));
                    archive.reservedCount(sale);
                    relayed.outboxDrained(sale);
                    passes.incrementAndGet();
                    if (PASS_PAUSE_MILLIS > 0) {
                        try {
                            Thread.sleep(PASS_PAUSE_MILLIS);
                        } catch (InterruptedException stopped) {
                            break;
                        }
                    }
                }
                cpuNanos.set(threads.getCurrentThreadCpuTime() - cpuBefore);
            });
        }

        void stop() throws InterruptedException {
            stop.set(true);
            thread.join();
        }
    }

    /**
     * Each background phase's p99 against the mean of the quiet phases either side of it, and the median over the
     * cycles: one pair alone is within the noise of this shared box.
     */
    private static void summary(List<Phase> phases) {
        List<Double> ratios = new ArrayList<>();
        for (int i = 1; i < phases.size(); i += 2) {
            double before = phases.get(i - 1).p99();
            double after = i + 1 < phases.size() ? phases.get(i + 1).p99() : before;
            double ratio = phases.get(i).p99() / ((before + after) / 2);
            ratios.add(ratio);
            System.out.printf("  cycle %d: p99 with passes %.3f ms against %.3f / %.3f around it: %+.0f%%%n",
                    i / 2 + 1, phases.get(i).p99(), before, after, (ratio - 1) * 100);
        }
        List<Double> sorted = ratios.stream().sorted().toList();
        double median = sorted.size() % 2 == 1 ? sorted.get(sorted.size() / 2)
                : (sorted.get(sorted.size() / 2 - 1) + sorted.get(sorted.size() / 2)) / 2;
        System.out.printf("  median over %d cycles: %+.0f%% (target: within +20%%)%n", ratios.size(),
                (median - 1) * 100);
    }

    private static final int PIPELINE_BATCH = 500;

    /**
     * What the order pipeline does to each new reservation, in batches as the service does: the relay reads the outbox
     * and acknowledges with the broker's position (made up here, there is no broker), the consumer settles the batch
     * as ordered ({@code settle_batch.lua}). So reservations stay in flight for milliseconds, as in a live sale.
     */
    private static Thread pipeline(RedisHotStore store, ActivityId sale, AtomicBoolean stop) {
        var outbox = store.outbox();
        var settlement = store.settlement();
        return Thread.ofPlatform().name("pipeline").start(() -> {
            long offset = 0;
            while (!stop.get()) {
                List<OutboxEntry> entries = outbox.readNew(sale, "bench-relay", PIPELINE_BATCH);
                if (entries.isEmpty()) {
                    // As the relay loop does between empty reads (there every 20 ms).
                    try {
                        Thread.sleep(5);
                    } catch (InterruptedException stopped) {
                        return;
                    }
                    continue;
                }
                List<EventPosition> positions = new ArrayList<>();
                for (int i = 0; i < entries.size(); i++) {
                    positions.add(new EventPosition(0, offset++));
                }
                outbox.acknowledge(sale, entries, positions);
                settlement.settle(sale, entries.stream().map(entry -> entry.reservation().id()).toList(), List.of());
            }
        });
    }

    /** Orders per rebuild page, as the application's LedgerRebuild sends them (LedgerRebuild.PAGE, package-private). */
    private static final int REBUILD_PAGE = 50;

    /**
     * SCHED_FIFO for the benchmark's redis-server (chrt, as root), so the load threads sharing its two cores cannot
     * deschedule it in the middle of a command: SLOWLOG then shows a command's own cost, as on a server that has a
     * core of its own, instead of the time the scheduler took it away. With {@code -Dflashsale.bench.redis-cpu=N} the
     * server also gets core N to itself (run this JVM with {@code taskset -c <the other cores>}).
     */
    private static void givePriority(long pid) throws IOException, InterruptedException {
        Process chrt = new ProcessBuilder("chrt", "--fifo", "--pid", "10", Long.toString(pid)).inheritIO().start();
        if (!chrt.waitFor(10, TimeUnit.SECONDS) || chrt.exitValue() != 0) {
            throw new IllegalStateException("chrt could not give redis-server " + pid + " SCHED_FIFO (root only)");
        }
        System.out.println("redis-server " + pid + " runs SCHED_FIFO 10 (-Dflashsale.bench.redis-realtime)");
        String cpu = System.getProperty("flashsale.bench.redis-cpu");
        if (cpu != null) {
            // Every thread of the server (its lazy-free and I/O threads too) on that core; start this JVM on the others.
            Process taskset = new ProcessBuilder("taskset", "--all-tasks", "--cpu-list", "--pid", cpu,
                    Long.toString(pid)).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!taskset.waitFor(10, TimeUnit.SECONDS) || taskset.exitValue() != 0) {
                throw new IllegalStateException("taskset could not pin redis-server " + pid + " to CPU " + cpu);
            }
            System.out.println("redis-server " + pid + " pinned to CPU " + cpu + " (-Dflashsale.bench.redis-cpu)");
        }
    }

    private static int rebuildInPages(RedisHotStoreRebuild hotStore, Activity lost, long buyers) {
        return rebuildInPages(hotStore, lost, buyers, REBUILD_PAGE);
    }

    /** Durations in nanoseconds (sorted) of one script's SLOWLOG entries. */
    private static long[] durations(List<Object> entries, String sha) {
        return entries.stream().map(entry -> (List<?>) entry)
                .filter(fields -> ((List<?>) fields.get(3)).size() > 1
                        && sha.equals(String.valueOf(((List<?>) fields.get(3)).get(1))))
                .mapToLong(fields -> ((Number) fields.get(2)).longValue() * 1000).sorted().toArray();
    }

    /** The rebuild's steps as LedgerRebuild runs them, from made-up orders: one ORDERED unit per buyer. */
    private static int rebuildInPages(RedisHotStoreRebuild hotStore, Activity lost, long buyers, int pageSize) {
        RebuildStart.Started started = (RebuildStart.Started) hotStore.beginRebuild(lost.id(), Instant.now());
        Instant at = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        Optional<ReservationId> after = Optional.empty();
        int pages = 0;
        for (long from = 0; from < buyers; from += pageSize) {
            List<Order> page = new ArrayList<>();
            for (long b = from; b < Math.min(buyers, from + pageSize); b++) {
                page.add(new Order(ReservationId.of(lost.id(), String.format("%012d", b)), new BuyerId("r" + b),
                        new RequestId("q" + b), List.of(new ReservationLine(SKU, 1)), ReservationStatus.ORDERED, null,
                        at, at));
            }
            ReservationId last = page.getLast().id();
            hotStore.rebuildPage(lost.id(), started.rebuildId(), after, last, page);
            after = Optional.of(last);
            pages++;
        }
        hotStore.finishRebuild(lost, started.rebuildId(), List.of(new SkuRebuild(SKU, buyers, 0, Map.of(), Set.of())));
        return pages;
    }

    private static Activity sale(ActivityId id, Instant now, long units) {
        return new Activity(id, "benchmark", now.minus(Duration.ofMinutes(1)), now.plus(Duration.ofHours(2)),
                new PurchaseLimit(1), Activity.DEFAULT_PAYMENT_TIMEOUT, List.of(new ActivityItem(SKU, units, null, 4)));
    }

    /**
     * Reservation records, holdings and ledger as the pipeline would have left them; outbox entries and in-flight index
     * entries for the RESERVED, and the SKU's sum of holdings. Written pipelined, a page of commands at a time.
     */
    private static void fill(StatefulRedisConnection<String, String> connection, ActivityId sale, int reservations)
            throws Exception {
        RedisAsyncCommands<String, String> redis = connection.async();
        String records = RedisKeys.reservations(sale);
        String held = RedisKeys.holdings(sale);
        String index = RedisKeys.inFlight(sale);
        long reserved = 0;
        Map<String, String> recordPage = new HashMap<>();
        Map<String, String> holdingPage = new HashMap<>();
        int buckets = RedisRequestIndex.buckets(connection.sync(), sale);
        List<RedisFuture<?>> sent = new ArrayList<>();
        for (int i = 0; i < reservations; i++) {
            String id = sale.value() + ".f" + i;
            boolean inFlight = i % 1000 >= 990;
            recordPage.put(id, new ReservationRecord(inFlight ? ReservationStatus.RESERVED : ReservationStatus.ORDERED,
                    new BuyerId("f" + i), new RequestId("r" + i), List.of(new ReservationLine(SKU, 1)),
                    Instant.parse("2026-12-01T09:00:00Z"), null, null, null).encode());
            holdingPage.put("f" + i + ":" + SKU.value(), "1");
            sent.add(redis.hset(RedisKeys.requestKey(sale, buckets, "f" + i + ":r" + i), "f" + i + ":r" + i, id));
            if (inFlight) {
                reserved++;
                sent.add(redis.hset(index, id, "1"));
                sent.add(redis.xadd(RedisKeys.outbox(sale), Map.of("type", "reserved", "reservationId", id, "activityId",
                        sale.value(), "buyerId", "f" + i, "requestId", "r" + i, "lines", SKU.value() + ":1", "at", "0",
                        "reservedAt", "2026-12-01T09:00:00Z")));
            }
            if (holdingPage.size() == WRITE_BATCH || i == reservations - 1) {
                sent.add(redis.hset(records, new HashMap<>(recordPage)));
                sent.add(redis.hset(held, new HashMap<>(holdingPage)));
                recordPage.clear();
                holdingPage.clear();
            }
            if (sent.size() >= 1000) {
                awaitAll(sent);
            }
        }
        awaitAll(sent);
        long sold = reservations - reserved;
        RedisCommands<String, String> sync = connection.sync();
        String ledger = RedisKeys.stock(sale);
        sync.hincrby(ledger, RedisKeys.stockField(SKU, "reserved"), reserved);
        sync.hincrby(ledger, RedisKeys.stockField(SKU, "sold"), sold);
        sync.hincrby(ledger, RedisKeys.stockField(SKU, "held"), reservations);
        sync.hincrby(ledger, RedisKeys.segmentField(SKU, 1), -(reserved + sold));
        System.out.printf("in-flight index: %,d entries%n", sync.hlen(index));
        if (!Boolean.getBoolean("flashsale.bench.grow-during-phases")) {
            long room = Long.getLong("flashsale.bench.room", 2_000_000L);
            long started = System.nanoTime();
            growAhead(connection, records, room);
            growAhead(connection, held, room);
            System.out.printf("hash tables grown ahead for %,d more reservations in %.1f s (used_memory %s)%n", room,
                    (System.nanoTime() - started) / 1e9, memory(sync));
        }
    }

    /** {@code DEBUG HTSTATS-KEY}: the hash's tables, two of them while Redis moves it to a bigger one. */
    private static String tableStats(RedisCommands<String, String> redis, String key) {
        return redis.dispatch(CommandType.DEBUG, new StatusOutput<>(StringCodec.UTF8),
                new CommandArgs<>(StringCodec.UTF8).add("HTSTATS-KEY").addKey(key));
    }

    /**
     * Grows a hash's table to hold {@code fields} more fields, lets Redis finish moving the entries there, and takes
     * the padding out again. Redis doubles a hash's table when it fills, then moves the entries over one bucket per
     * command that touches the hash: for a hash of millions of fields that takes minutes of a live sale, and every
     * command on the hash costs more meanwhile (two tables to probe, a new table's pages faulted in). Grown ahead, no
     * phase of this run straddles such a move, so the phases compare the background work and nothing else.
     * {@code -Dflashsale.bench.grow-during-phases=true} leaves the tables to grow as the run fills them.
     */
    private static void growAhead(StatefulRedisConnection<String, String> connection, String key, long fields)
            throws Exception {
        RedisAsyncCommands<String, String> redis = connection.async();
        inPages(fields, padding -> redis.hset(key, Arrays.stream(padding)
                .collect(Collectors.toMap(field -> field, field -> ""))));
        RedisCommands<String, String> sync = connection.sync();
        // Every command on the hash moves one bucket; a script of many cheap look-ups moves many, inside Redis.
        while (tableStats(sync, key).contains("rehashing target")) {
            sync.eval("for i = 1, 200000 do redis.call('HEXISTS', KEYS[1], '-') end return 1",
                    ScriptOutputType.INTEGER, key);
        }
        inPages(fields, padding -> redis.hdel(key, padding));
    }

    /** Sends {@code send} for the padding fields {@code pad:0 .. pad:<count-1>}, a page at a time, pipelined. */
    private static void inPages(long count, Function<String[], RedisFuture<?>> send) throws Exception {
        List<RedisFuture<?>> sent = new ArrayList<>();
        for (long from = 0; from < count; from += WRITE_BATCH) {
            String[] page = new String[(int) Math.min(WRITE_BATCH, count - from)];
            for (int i = 0; i < page.length; i++) {
                page[i] = "pad:" + (from + i);
            }
            sent.add(send.apply(page));
            if (sent.size() >= 200) {
                awaitAll(sent);
            }
        }
        awaitAll(sent);
    }

    private static void awaitAll(List<RedisFuture<?>> sent) throws Exception {
        for (RedisFuture<?> future : sent) {
            future.get(60, TimeUnit.SECONDS);
        }
        sent.clear();
    }

    /** A measured phase's reservations, at the offered rate of the run. */
    private static long[] reserveFor(RedisStockReservationAdapter stock, ActivityId sale, int seconds, int threads,
                                     String phase) throws InterruptedException {
        return reserveFor(stock, sale, seconds, threads, phase, OFFERED_RATE);
    }

    /**
     * Latencies in nanoseconds of every reservation the threads made in the phase, sorted. With a {@code rate} each
     * thread sends at fixed instants (staggered between threads) and a latency runs from the instant the request was
     * due, so a thread held up by a slow answer charges the wait to the requests it delayed as well.
     */
    private static long[] reserveFor(RedisStockReservationAdapter stock, ActivityId sale, int seconds, int threads,
                                     String phase, double rate) throws InterruptedException {
        long begin = System.nanoTime();
        long until = begin + Duration.ofSeconds(seconds).toNanos();
        long interval = rate > 0 ? (long) (threads * 1e9 / rate) : 0;
        List<long[]> perThread = new ArrayList<>();
        List<Thread> running = new ArrayList<>();
        int[] counts = new int[threads];
        for (int t = 0; t < threads; t++) {
            long[] latencies = new long[2_000_000];
            perThread.add(latencies);
            int thread = t;
            running.add(Thread.ofPlatform().start(() -> {
                int n = 0;
                long due = begin + interval * thread / threads;
                while (System.nanoTime() < until && n < latencies.length) {
                    if (interval > 0) {
                        long early = due - System.nanoTime();
                        if (early > 0) {
                            LockSupport.parkNanos(early);
                        }
                    }
                    String token = phase + "t" + thread + "n" + n;
                    var request = new ReservationRequest(ReservationId.of(sale, token), new BuyerId(token),
                            new RequestId("k" + n), List.of(new ReservationLine(SKU, 1)), Instant.now());
                    long start = interval > 0 ? due : System.nanoTime();
                    due += interval;
                    ReservationOutcome outcome = stock.reserve(request);
                    latencies[n++] = System.nanoTime() - start;
                    if (!(outcome instanceof ReservationOutcome.Reserved)) {
                        throw new IllegalStateException("not reserved: " + outcome);
                    }
                }
                counts[thread] = n;
            }));
        }
        for (Thread thread : running) {
            thread.join();
        }
        int total = Arrays.stream(counts).sum();
        long[] all = new long[total];
        int at = 0;
        for (int t = 0; t < threads; t++) {
            System.arraycopy(perThread.get(t), 0, all, at, counts[t]);
            at += counts[t];
        }
        Arrays.sort(all);
        return all;
    }

    private static void print(String phase, long[] sorted) {
        System.out.printf("  %-22s n=%,9d  p50 %6.3f  p99 %6.3f  p999 %6.3f  max %7.3f%n", phase, sorted.length,
                at(sorted, 0.50), at(sorted, 0.99), at(sorted, 0.999), sorted[sorted.length - 1] / 1e6);
    }

    private static double at(long[] sorted, double quantile) {
        return sorted[(int) Math.min(sorted.length - 1, Math.floor(quantile * sorted.length))] / 1e6;
    }

    /**
     * Commands only the background passes send here. Redis 7 logs the commands a script runs as well, so an HMGET, HGET
     * or HSET of a few fields is a script's (reserve.lua reads a record's status and buyer); the passes' HMGET reads
     * pages of a hundred fields, logged as {@code HMGET*} here.
     */
    private static final Set<String> BACKGROUND = Set.of("HSCAN", "HMGET*", "XRANGE", "XPENDING", "XINFO", "EXISTS",
            "EVALSHA reconcile_figures.lua", "EVALSHA reconcile_snapshot.lua", "EVALSHA reconcile_repair.lua");

    /**
     * Slowest entry per command ({@code EVALSHA} named by its script) of one phase's SLOWLOG, with the first arguments
     * of that entry (the key and the first fields tell which read it was) and how many arguments it had.
     */
    private static void printSlowlog(String phase, List<Object> entries, Map<String, String> scriptNames) {
        Map<String, Long> slowest = new HashMap<>();
        Map<String, String> slowestArgs = new HashMap<>();
        Map<String, Integer> count = new HashMap<>();
        for (Object entry : entries) {
            List<?> fields = (List<?>) entry;
            long micros = ((Number) fields.get(2)).longValue();
            List<?> command = (List<?>) fields.get(3);
            String name = String.valueOf(command.getFirst()).toUpperCase();
            if (name.equals("EVALSHA") && command.size() > 1) {
                name = "EVALSHA " + scriptNames.getOrDefault(String.valueOf(command.get(1)), "?");
            }
            if (name.equals("HMGET") && command.size() > 20) {
                name = "HMGET*";
            }
            if (micros > slowest.getOrDefault(name, -1L)) {
                slowest.put(name, micros);
                slowestArgs.put(name, command.size() + " args: " + command.subList(1, Math.min(command.size(), 4)));
            }
            count.merge(name, 1, Integer::sum);
        }
        if (slowest.isEmpty()) {
            System.out.printf("  %-22s none%n", phase);
        }
        slowest.forEach((name, micros) -> System.out.printf("  %-22s %s%-28s max %8.3f ms (%d entries) %s%n", phase,
                BACKGROUND.contains(name) ? "*" : " ", name, micros / 1000.0, count.get(name), slowestArgs.get(name)));
    }

    private static Map<String, String> scriptNames(RedisCommands<String, String> redis) {
        Map<String, String> names = new HashMap<>();
        for (String script : List.of("reserve", "warm_up", "reconcile_figures", "reconcile_repair", "archive",
                "rebuild_begin", "rebuild_page", "rebuild_finish", "reconcile_snapshot", "reconcile_settled", "settle_batch",
                "restore_batch", "outbox_backlog", "reconcile_redrive", "mark_paid", "fail", "confirm", "release", "restore", "adjust", "acknowledge", "stock")) {
            names.put(LuaScript.load(redis, script).sha(), script + ".lua");
        }
        return names;
    }

    private static String memory(RedisCommands<String, String> redis) {
        return redis.info("memory").lines().filter(line -> line.startsWith("used_memory_human:"))
                .map(line -> line.substring("used_memory_human:".length()).trim()).findFirst().orElse("?");
    }

    private static String version(RedisCommands<String, String> redis) {
        return redis.info("server").lines().filter(line -> line.startsWith("redis_version:"))
                .map(line -> line.substring("redis_version:".length()).trim()).findFirst().orElse("?");
    }

    private static StatefulRedisConnection<String, String> connect(RedisClient client) throws InterruptedException {
        for (int attempt = 0; ; attempt++) {
            try {
                return client.connect();
            } catch (RuntimeException notYet) {
                if (attempt == 50) {
                    throw notYet;
                }
                Thread.sleep(100);
            }
        }
    }
}
