package io.flashsale.adapter.redis;

import io.flashsale.application.order.port.in.RelayReservationsUseCase;
import io.flashsale.application.order.port.out.OrderPipelineMetricsPort;
import io.flashsale.application.order.port.out.ReservationEventPublisherPort;
import io.flashsale.application.order.service.NewsDrivenRelay;
import io.flashsale.application.order.service.OutboxRelayService;
import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.testsupport.CommandStats;
import io.flashsale.testsupport.RedisServerProcess;
import io.flashsale.testsupport.TestServices;
import io.lettuce.core.KillArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The relay driven by outbox news (ADR 0067) against the real Redis: it hands a new reservation on within moments of
 * its acceptance, whether this instance or another accepted it, finds an entry whose notice was lost within the
 * sweep, sweeps everything when its subscription reconnects, and costs an idle Redis almost nothing with 1,000 sales.
 */
@Timeout(120)
class RedisOutboxNewsIT {

    private static final SkuId SKU = new SkuId("unit");
    private static final Duration STALE_AFTER = Duration.ofSeconds(10);
    /** No paced sweep within a test: only news (or a sweep the test asks for) can find an entry. */
    private static final NewsDrivenRelay.Sweep NO_SWEEP_HERE = new NewsDrivenRelay.Sweep(Duration.ofHours(1), 1);
    /** The target: the median must meet it. */
    private static final Duration TARGET = Duration.ofMillis(50);
    /**
     * Each one: a single sample on a box shared by many builds (load 5-16 on 2 cores) can wait for a CPU for reasons
     * that have nothing to do with the relay.
     */
    private static final Duration GENEROUS = Duration.ofSeconds(1);

    private final RedisCommands<String, String> redis = SharedRedis.connection().sync();
    private final String registry = SharedRedis.newRegistry();
    private final List<RedisHotStore> stores = new ArrayList<>();
    private final List<Driver> drivers = new ArrayList<>();
    private final List<ActivityId> sales = new ArrayList<>();
    private final Map<String, Long> handedOnAt = new ConcurrentHashMap<>();
    private final AtomicInteger handedOnTimes = new AtomicInteger();
    private RedisServerProcess ownServer;
    private RedisClient ownClient;
    private StatefulRedisConnection<String, String> ownConnection;

    @AfterEach
    void forget() {
        drivers.forEach(Driver::close);
        stores.forEach(RedisHotStore::close);
        if (ownServer != null) {
            ownConnection.close();
            ownClient.shutdown();
            ownServer.close();
        }
        for (ActivityId sale : sales) {
            redis.del(RedisRequestIndex.saleKeys(redis, sale).toArray(String[]::new));
        }
        redis.del(registry);
    }

    @Test
    void givenOneInstance_whenItAcceptsReservations_thenItsRelayHandsEachOnWithinMoments() {
        RedisHotStore instance = instance();
        relayOn(instance, NO_SWEEP_HERE);

        List<Long> latencies = acceptAndMeasure(instance.stockReservations(), 3, 60);

        report("same instance", latencies);
        assertWithinTarget(latencies);
    }

    @Test
    void givenABuyersOnlyInstance_whenItAcceptsReservations_thenAnotherInstancesRelayHandsEachOnWithinMoments() {
        RedisHotStore buyersOnly = instance();
        relayOn(instance(), NO_SWEEP_HERE);

        List<Long> latencies = acceptAndMeasure(buyersOnly.stockReservations(), 3, 60);

        report("other instance", latencies);
        assertWithinTarget(latencies);
    }

    /**
     * News alone (no sweep after the start) must carry every reservation, under real concurrency: a notice lost between
     * the reserving threads, the coalescing sender and the relay's passes would leave one behind.
     */
    @RepeatedTest(3)
    void givenBuyersRacingOnTwoInstances_whenBothRelayByNews_thenEveryAcceptedReservationIsHandedOnOnce()
            throws InterruptedException {
        List<RedisHotStore> instances = List.of(instance(), instance());
        instances.forEach(instance -> relayOn(instance, NO_SWEEP_HERE));
        List<ActivityId> open = IntStream.range(0, 4).mapToObj(i -> warmedSale(instances.getFirst().stockReservations()))
                .toList();
        awaitStartSweepDone();
        Set<String> accepted = ConcurrentHashMap.newKeySet();
        int threads = 8;
        int each = 150;
        try (ExecutorService buyers = Executors.newFixedThreadPool(threads)) {
            for (int t = 0; t < threads; t++) {
                int thread = t;
                StockReservationPort stock = instances.get(t % 2).stockReservations();
                buyers.submit(() -> {
                    for (int i = 0; i < each; i++) {
                        accepted.add(reserve(stock, open.get((thread + i) % open.size()), "b-" + thread + "-" + i)
                                .id().value());
                    }
                });
            }
        }

        awaitUntil(Duration.ofSeconds(20), () -> handedOnAt.keySet().containsAll(accepted));
        assertThat(accepted).hasSize(threads * each);
        assertThat(handedOnTimes).as("each handed on once").hasValue(threads * each);
    }

    @Test
    void givenANoticeLost_whenTheSweepComes_thenTheReservationIsStillHandedOnWithinTheSweepInterval() {
        Duration sweepEvery = Duration.ofSeconds(1);
        RedisHotStore instance = instance();
        ActivityId sale = warmedSale(instance.stockReservations());
        relayOn(instance, new NewsDrivenRelay.Sweep(sweepEvery, 20));
        awaitStartSweepDone();
        // This adapter announces nothing: as if the notice had been dropped on the way.
        var silent = new RedisStockReservationAdapter(SharedRedis.connection(), registry);

        long acceptedAt = System.nanoTime();
        Reservation reservation = reserve(silent, sale, "lost-notice");

        awaitUntil(sweepEvery.plusSeconds(2), () -> handedOnAt.containsKey(reservation.id().value()));
        long within = handedOnAt.get(reservation.id().value()) - acceptedAt;
        System.out.printf("lost notice: handed on by the sweep after %d ms (sweep every %d ms)%n",
                TimeUnit.NANOSECONDS.toMillis(within), sweepEvery.toMillis());
    }

    @Test
    void givenTheSubscriptionReconnects_thenTheRelaySweepsEveryOutboxAtOnce() {
        RedisHotStore instance = instanceOn(ownServer().port());
        ActivityId sale = warmedSale(instance.stockReservations());
        relayOn(instance, NO_SWEEP_HERE);
        awaitStartSweepDone();
        Reservation unannounced = reserve(new RedisStockReservationAdapter(ownConnection, registry), sale,
                "while-disconnected");
        LockSupport.parkNanos(Duration.ofMillis(300).toNanos());
        assertThat(handedOnAt).as("no notice, no sweep yet").doesNotContainKey(unannounced.id().value());

        // The test's own server drops every subscription; Lettuce reconnects and subscribes again.
        ownConnection.sync().clientKill(KillArgs.Builder.typePubsub());

        awaitUntil(Duration.ofSeconds(10), () -> handedOnAt.containsKey(unannounced.id().value()));
    }

    /**
     * 1,000 registered sales, each with its outbox and group as after a relayed sale, and nothing happening: one
     * instance (its relay, the sold-out memory's subscription) sends at most 50 commands a second, counted on a
     * redis-server of the test's own.
     */
    @Test
    void givenAThousandIdleSales_whenNothingHappens_thenOneInstanceSendsAtMostFiftyCommandsASecond() {
        RedisHotStore instance = instanceOn(ownServer().port());
        List<String> ids = IntStream.range(0, 1000).mapToObj(i -> "idle-" + i + "-" + UUID.randomUUID()
                .toString().substring(0, 8)).toList();
        warmCheaply(ids);
        var sweep = new NewsDrivenRelay.Sweep(Duration.ofSeconds(5), 20);
        relayOn(instance, sweep);
        // Past the start sweep (every outbox at once) into the paced one that follows: the steady idle state.
        LockSupport.parkNanos(sweep.every().plusSeconds(1).toNanos());

        Map<String, Long> before = commandCalls();
        Duration window = Duration.ofSeconds(10);
        LockSupport.parkNanos(window.toNanos());
        Map<String, Long> after = commandCalls();

        Map<String, Long> delta = CommandStats.between(before, after);
        double perSecond = CommandStats.perSecond(delta, window);
        System.out.printf("idle, 1,000 sales: %.1f commands/s over %d s: %s%n", perSecond, window.toSeconds(), delta);
        assertThat(perSecond).isLessThanOrEqualTo(50);
    }

    // ---- the instances and their relays ----

    private RedisHotStore instance() {
        return instanceOn(TestServices.redis().port());
    }

    private RedisHotStore instanceOn(int port) {
        var settings = new RedisHotStore.Settings(TestServices.redis().host(), port, null, 0, Duration.ofSeconds(10));
        RedisHotStore store = RedisHotStore.connect(settings, registry, false);
        stores.add(store);
        return store;
    }

    /** A redis-server of this test's own: its commands and its clients are this test's alone. */
    private RedisServerProcess ownServer() {
        if (ownServer == null) {
            ownServer = RedisServerProcess.onFreePort(RedisServerProcess.Persistence.NONE).start();
            ownClient = RedisClient.create(ownServer.uri());
            ownConnection = ownClient.connect();
        }
        return ownServer;
    }

    private void relayOn(RedisHotStore instance, NewsDrivenRelay.Sweep sweep) {
        var relay = new NewsDrivenRelay(new OutboxRelayService(instance.outbox(), new Recorder(), new NoMetrics(),
                "relay-" + stores.size(), STALE_AFTER, 1000), instance.outbox(), sweep);
        instance.outboxNews().subscribe(relay);
        drivers.add(new Driver(relay));
    }

    /** The start sweep (and the one on subscribing) probes every registered outbox; waits until they are done. */
    private void awaitStartSweepDone() {
        LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
    }

    private List<Long> acceptAndMeasure(StockReservationPort stock, int saleCount, int reservations) {
        List<ActivityId> open = IntStream.range(0, saleCount).mapToObj(i -> warmedSale(stock)).toList();
        awaitStartSweepDone();
        var acceptedAt = new TreeMap<String, Long>();
        for (int i = 0; i < reservations; i++) {
            Reservation reservation = reserve(stock, open.get(i % saleCount), "buyer-" + i);
            acceptedAt.put(reservation.id().value(), System.nanoTime());
            // Quiet gaps as well as bursts: the first notice of a sale and the coalesced ones.
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(ThreadLocalRandom.current().nextInt(0, 12)));
        }
        awaitUntil(Duration.ofSeconds(10), () -> handedOnAt.keySet().containsAll(acceptedAt.keySet()));
        return acceptedAt.entrySet().stream()
                .map(accepted -> Math.max(0, handedOnAt.get(accepted.getKey()) - accepted.getValue())).toList();
    }

    private static void awaitUntil(Duration atMost, BooleanSupplier condition) {
        long deadline = System.nanoTime() + atMost.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("not within " + atMost).isNegative();
            LockSupport.parkNanos(Duration.ofMillis(1).toNanos());
        }
    }

    private static void assertWithinTarget(List<Long> latencies) {
        assertThat(latencies.stream().sorted().toList().get(latencies.size() / 2)).as("median, ns")
                .isLessThanOrEqualTo(TARGET.toNanos());
        assertThat(latencies).allSatisfy(nanos -> assertThat(nanos).isLessThan(GENEROUS.toNanos()));
    }

    private static void report(String path, List<Long> latencies) {
        long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
        System.out.printf("%s: %d reservations handed on after p50 %.2f ms, p99 %.2f ms, max %.2f ms%n", path,
                sorted.length, sorted[sorted.length / 2] / 1e6, sorted[(int) (sorted.length * 0.99)] / 1e6,
                sorted[sorted.length - 1] / 1e6);
    }

    private ActivityId warmedSale(StockReservationPort stock) {
        var sale = new ActivityId("news-" + UUID.randomUUID().toString().substring(0, 12));
        sales.add(sale);
        Instant now = Instant.now();
        stock.warmUp(new Activity(sale, "news", now.minusSeconds(60), now.plusSeconds(3600), PurchaseLimit.ONE,
                Duration.ofMinutes(15), List.of(ActivityItem.of(SKU.value(), 1000))));
        return sale;
    }

    private static Reservation reserve(StockReservationPort stock, ActivityId sale, String buyer) {
        var id = ReservationId.of(sale, UUID.randomUUID().toString().replace("-", ""));
        ReservationOutcome outcome = stock.reserve(new ReservationRequest(id, new BuyerId(buyer),
                new RequestId("k-" + buyer), List.of(new ReservationLine(SKU, 1)), Instant.now()));
        assertThat(outcome).isInstanceOf(ReservationOutcome.Reserved.class);
        return ((ReservationOutcome.Reserved) outcome).reservation();
    }

    /**
     * Registered and ready (its meta says so, as a warm-up leaves it: the instance reads the sale's slice count there
     * once), with an empty outbox and its group, as a sale whose reservations were all relayed; on the test's own
     * server, which takes them along when it stops.
     */
    private void warmCheaply(List<String> ids) {
        RedisAsyncCommands<String, String> async = ownConnection.async();
        ownConnection.sync().sadd(registry, ids.toArray(String[]::new));
        ids.stream().map(id -> async.hset(RedisKeys.meta(new ActivityId(id)), RedisKeys.META_READY, "1")
                .toCompletableFuture()).toList().forEach(CompletableFuture::join);
        ids.stream().map(id -> async.xgroupCreate(XReadArgs.StreamOffset.from(RedisKeys.outbox(new ActivityId(id)), "$"),
                        RedisKeys.OUTBOX_GROUP, XGroupCreateArgs.Builder.mkstream()).toCompletableFuture())
                .toList().forEach(CompletableFuture::join);
    }

    private Map<String, Long> commandCalls() {
        return CommandStats.calls(ownConnection.sync().info("commandstats"));
    }

    /** What the broker would get: the moment each reservation was handed on. */
    private final class Recorder implements ReservationEventPublisherPort {

        @Override
        public void publish(List<Reservation> reservations) {
            long now = System.nanoTime();
            reservations.forEach(reservation -> handedOnAt.putIfAbsent(reservation.id().value(), now));
            handedOnTimes.addAndGet(reservations.size());
        }
    }

    private static final class NoMetrics implements OrderPipelineMetricsPort {

        @Override
        public void recorded(OrderPlacement placement) {
        }

        @Override
        public void relayed(int reservations) {
        }
    }

    /** The relay's loop as the service runs it: a pass, at once again after work, else the interval or a wake-up. */
    private static final class Driver implements AutoCloseable {

        private static final long INTERVAL = Duration.ofMillis(20).toNanos();
        private volatile boolean running = true;
        private final Thread thread;

        Driver(RelayReservationsUseCase relay) {
            thread = Thread.ofPlatform().daemon().unstarted(() -> {
                while (running) {
                    int relayed;
                    try {
                        relayed = relay.relayPending();
                    } catch (RuntimeException failed) {
                        relayed = 0;
                    }
                    if (relayed == 0) {
                        LockSupport.parkNanos(INTERVAL);
                    }
                }
            });
            relay.whenWorkArrives(() -> LockSupport.unpark(thread));
            thread.start();
        }

        @Override
        public void close() {
            running = false;
            LockSupport.unpark(thread);
            try {
                thread.join(5000);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
