package io.flashsale.adapter.redis;

import io.flashsale.application.sale.model.WarmUpPass;
import io.flashsale.application.sale.service.WarmUpScheduler;
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
import io.flashsale.domain.stock.SkuStock;
import io.flashsale.domain.stock.StockLedger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Several instances run the warm-up schedule (and admins the explicit warm-up) at once while buyers already reserve.
 * The ledger is loaded once: if any warm-up reset it, the units it counts as reserved would fall short of the units
 * buyers were granted.
 */
class RedisWarmUpRaceIT {

    private static final SkuId PLAIN = new SkuId("plain");
    private static final SkuId SEGMENTED = new SkuId("segmented");
    private static final long STOCK = 10_000;
    private static final int INSTANCES = 4;
    private static final int BUYER_THREADS = 3;
    private static final int ATTEMPTS_PER_BUYER = 150;

    private final RedisStockReservationAdapter stock = SharedRedis.adapter();
    private final List<ActivityId> activities = new ArrayList<>();

    @AfterEach
    void forgetEverything() {
        activities.forEach(SharedRedis::forget);
    }

    @Test
    void beforeTheScheduleReachesASaleItsBuyersGetNotReadyAndNothingIsLoadedOnTheirAccount() {
        Instant now = Instant.now();
        Activity sale = openSale(now.plusSeconds(120));
        var scheduler = new WarmUpScheduler(new DueActivities(sale), stock, Clock.fixed(now, ZoneOffset.UTC));

        WarmUpPass tooEarly = scheduler.warmUpDue();
        ReservationOutcome attempt = stock.reserve(request(sale.id(), "early", PLAIN, now));

        assertThat(tooEarly.warmedUp()).isEmpty();
        assertThat(attempt).isInstanceOf(ReservationOutcome.NotReady.class);
        assertThat(stock.stock(sale.id())).isEmpty();
        assertThat(new WarmUpScheduler(new DueActivities(sale), stock,
                Clock.fixed(now.plusSeconds(60), ZoneOffset.UTC)).warmUpDue().warmedUp()).containsExactly(sale.id());
        assertThat(stock.stock(sale.id())).contains(List.of(
                new SkuStock(PLAIN, StockLedger.of(STOCK)), new SkuStock(SEGMENTED, StockLedger.of(STOCK))));
    }

    @Test
    void givenReservationsAlreadyMade_whenInstancesAndAdminsWarmUpAgainWhileBuyersGoOn_thenTheLedgerIsNeverReset()
            throws Exception {
        Activity sale = openSale(Instant.now().minusSeconds(1));
        stock.warmUp(sale);
        var granted = new ConcurrentLinkedQueue<ReservationLine>();
        for (int b = 0; b < 25; b++) {
            reserve(sale, "before-" + b, granted);
        }

        List<WarmUpPass> passes = race(sale, granted);

        assertThat(passes).as("it was loaded before every pass").allSatisfy(pass -> assertThat(pass.warmedUp()).isEmpty());
        assertLedgerAccountsFor(sale, granted);
    }

    @RepeatedTest(5)
    void givenASaleNoInstanceHasLoadedYet_whenInstancesRaceToWarmItUpWhileBuyersHammer_thenItIsLoadedOnce()
            throws Exception {
        Activity sale = openSale(Instant.now().minusSeconds(1));
        var granted = new ConcurrentLinkedQueue<ReservationLine>();

        race(sale, granted);

        assertLedgerAccountsFor(sale, granted);
    }

    /**
     * {@value #INSTANCES} schedulers and one admin thread warm up repeatedly while {@value #BUYER_THREADS} buyer threads
     * reserve; all start together.
     */
    private List<WarmUpPass> race(Activity sale, Queue<ReservationLine> granted) throws Exception {
        var passes = new ConcurrentLinkedQueue<WarmUpPass>();
        var buyersDone = new AtomicBoolean();
        var start = new CyclicBarrier(INSTANCES + 1 + BUYER_THREADS);
        try (ExecutorService pool = Executors.newFixedThreadPool(INSTANCES + 1 + BUYER_THREADS)) {
            var warmers = new ArrayList<Future<?>>();
            for (int i = 0; i < INSTANCES; i++) {
                var scheduler = new WarmUpScheduler(new DueActivities(sale), stock, Clock.systemUTC());
                warmers.add(pool.submit(() -> {
                    start.await();
                    do {
                        passes.add(scheduler.warmUpDue());
                    } while (!buyersDone.get());
                    return null;
                }));
            }
            warmers.add(pool.submit(() -> {
                start.await();
                do {
                    stock.warmUp(sale);
                } while (!buyersDone.get());
                return null;
            }));
            var buyers = new ArrayList<Future<?>>();
            for (int t = 0; t < BUYER_THREADS; t++) {
                String prefix = "t" + t;
                buyers.add(pool.submit(() -> {
                    start.await();
                    for (int n = 0; n < ATTEMPTS_PER_BUYER; n++) {
                        reserve(sale, prefix + "-" + n, granted);
                    }
                    return null;
                }));
            }
            for (Future<?> buyer : buyers) {
                buyer.get();
            }
            buyersDone.set(true);
            for (Future<?> warmer : warmers) {
                warmer.get();
            }
        }
        return List.copyOf(passes);
    }

    /** One unit of each SKU; NotReady until some warm-up got there, then always granted (stock and limit suffice). */
    private void reserve(Activity sale, String buyer, Queue<ReservationLine> granted) {
        Instant now = Instant.now();
        for (SkuId sku : List.of(PLAIN, SEGMENTED)) {
            ReservationOutcome outcome = stock.reserve(request(sale.id(), buyer, sku, now));
            if (outcome instanceof ReservationOutcome.Reserved) {
                granted.add(new ReservationLine(sku, 1));
            } else {
                assertThat(outcome).as(buyer + " on " + sku).isInstanceOf(ReservationOutcome.NotReady.class);
            }
        }
    }

    private void assertLedgerAccountsFor(Activity sale, Queue<ReservationLine> granted) {
        Map<SkuId, Long> units = granted.stream()
                .collect(Collectors.groupingBy(ReservationLine::skuId, Collectors.summingLong(ReservationLine::quantity)));
        assertThat(units.values()).as("buyers got through").allSatisfy(unitsOfSku -> assertThat(unitsOfSku).isPositive());
        assertThat(stock.stock(sale.id())).contains(List.of(
                new SkuStock(PLAIN, new StockLedger(STOCK, units.getOrDefault(PLAIN, 0L), 0)),
                new SkuStock(SEGMENTED, new StockLedger(STOCK, units.getOrDefault(SEGMENTED, 0L), 0))));
    }

    private Activity openSale(Instant startsAt) {
        var sale = new Activity(new ActivityId("warm-" + UUID.randomUUID().toString().substring(0, 8)), "warm-up race",
                startsAt, startsAt.plus(Duration.ofHours(1)), PurchaseLimit.ONE, Activity.DEFAULT_PAYMENT_TIMEOUT,
                List.of(new ActivityItem(PLAIN, STOCK, null, 1), new ActivityItem(SEGMENTED, STOCK, null, 8)));
        activities.add(sale.id());
        return sale;
    }

    private static ReservationRequest request(ActivityId activityId, String buyer, SkuId sku, Instant now) {
        String token = UUID.randomUUID().toString().replace("-", "");
        return new ReservationRequest(ReservationId.of(activityId, token), new BuyerId(buyer),
                new RequestId("k-" + sku.value() + "-" + buyer), List.of(new ReservationLine(sku, 1)), now);
    }
}
