package io.flashsale.adapter.redis;

import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationOutcome.LimitExceeded;
import io.flashsale.domain.reservation.ReservationOutcome.Replayed;
import io.flashsale.domain.reservation.ReservationOutcome.Reserved;
import io.flashsale.domain.reservation.ReservationOutcome.SoldOut;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.stock.SkuStock;
import io.flashsale.domain.stock.StockLedger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * 64 threads on the one shared connection fire every buyer's requests at one sale at once. Redis runs one
 * script at a time, so the figures must come out exactly as if the requests had been served one by one.
 */
class RedisReservationRaceIT {

    private static final int THREADS = 64;
    private static final int BUYERS = 120;
    private static final SkuId HOT = new SkuId("hot");
    private static final SkuId PAIR_A = new SkuId("pair-a");
    private static final SkuId PAIR_B = new SkuId("pair-b");
    private static final long HOT_STOCK = 40;
    private static final long PAIR_A_STOCK = 500;
    private static final long PAIR_B_STOCK = 90;
    private static final int PAIR_LIMIT = 2;

    private final RedisStockReservationAdapter adapter = adapter();
    private ActivityId activityId;

    private record Attempt(ReservationRequest request, ReservationOutcome outcome) {
    }

    @RepeatedTest(20)
    void givenMoreDemandThanStock_whenAllBuyersRace_thenExactlyTheStockIsReservedWithinLimitsAndAllOrNothing()
            throws Exception {
        Instant now = Instant.now();
        Activity sale = new Activity(new ActivityId("race-" + UUID.randomUUID().toString().substring(0, 8)),
                "race", now.minus(Duration.ofMinutes(1)), now.plus(Duration.ofHours(1)), PurchaseLimit.ONE,
                Activity.DEFAULT_PAYMENT_TIMEOUT, List.of(
                new ActivityItem(HOT, HOT_STOCK, null, 4),
                new ActivityItem(PAIR_A, PAIR_A_STOCK, PAIR_LIMIT, 1),
                new ActivityItem(PAIR_B, PAIR_B_STOCK, PAIR_LIMIT, 3)));
        adapter.warmUp(sale);
        activityId = sale.id();

        List<Attempt> attempts = race(requestsOfEveryBuyer(sale.id(), now));

        List<Reservation> accepted = attempts.stream()
                .filter(attempt -> attempt.outcome() instanceof Reserved)
                .map(attempt -> ((Reserved) attempt.outcome()).reservation())
                .toList();
        assertExactlyTheStockIsReservedAndTheFiguresAddUp(sale.id(), accepted);
        assertEveryBuyerHoldsWhatTheirAcceptedRequestsSayWithinTheLimits(sale.id(), accepted);
        assertRefusalsAreSellOutsOrLimitsAndReplaysPointAtTheAcceptedReservation(attempts, accepted);
        assertThat(outboxReservations(sale.id())).as("every accepted reservation in the outbox once")
                .containsExactlyInAnyOrderElementsOf(accepted.stream().map(reservation -> reservation.id().value())
                        .toList());
        for (Reservation reservation : accepted) {
            assertThat(adapter.findReservation(reservation.id())).contains(reservation);
        }
    }

    @AfterEach
    void forgetTheSale() {
        if (activityId != null) {
            forget(activityId);
        }
    }

    /** The adapter under test; {@link RedisClusterReservationRaceIT} runs the same race on a cluster. */
    RedisStockReservationAdapter adapter() {
        return SharedRedis.adapter();
    }

    List<String> outboxReservations(ActivityId activityId) {
        return OutboxReservations.ids(SharedRedis.connection().sync(), activityId);
    }

    void forget(ActivityId activityId) {
        SharedRedis.forget(activityId);
    }

    /**
     * Per buyer: the hot SKU twice under the same requestId (a double click) and once under another, two
     * two-SKU requests and one more request for the scarcer SKU of the pair.
     */
    private static List<ReservationRequest> requestsOfEveryBuyer(ActivityId activityId, Instant now) {
        var requests = new ArrayList<ReservationRequest>();
        for (int b = 0; b < BUYERS; b++) {
            var buyer = new BuyerId("buyer-" + b);
            requests.add(request(activityId, buyer, "hot", now, new ReservationLine(HOT, 1)));
            requests.add(request(activityId, buyer, "hot", now, new ReservationLine(HOT, 1)));
            requests.add(request(activityId, buyer, "hot-again", now, new ReservationLine(HOT, 1)));
            requests.add(request(activityId, buyer, "pair-1", now, new ReservationLine(PAIR_A, 1),
                    new ReservationLine(PAIR_B, 1)));
            requests.add(request(activityId, buyer, "pair-2", now, new ReservationLine(PAIR_B, 1),
                    new ReservationLine(PAIR_A, 1)));
            requests.add(request(activityId, buyer, "b-only", now, new ReservationLine(PAIR_B, 1)));
        }
        Collections.shuffle(requests);
        return requests;
    }

    private static ReservationRequest request(ActivityId activityId, BuyerId buyer, String requestId, Instant at,
                                              ReservationLine... lines) {
        var id = ReservationId.of(activityId, UUID.randomUUID().toString().replace("-", ""));
        return new ReservationRequest(id, buyer, new RequestId(requestId), List.of(lines), at);
    }

    /** Every thread waits at the gate, then they all drain one queue of requests as fast as they can. */
    private List<Attempt> race(List<ReservationRequest> requests) throws Exception {
        Queue<ReservationRequest> queue = new ConcurrentLinkedQueue<>(requests);
        Queue<Attempt> attempts = new ConcurrentLinkedQueue<>();
        var gate = new CyclicBarrier(THREADS);
        try (ExecutorService pool = Executors.newFixedThreadPool(THREADS)) {
            var workers = new ArrayList<Future<?>>();
            for (int t = 0; t < THREADS; t++) {
                workers.add(pool.submit(() -> {
                    gate.await();
                    for (ReservationRequest request = queue.poll(); request != null; request = queue.poll()) {
                        attempts.add(new Attempt(request, adapter.reserve(request)));
                    }
                    return null;
                }));
            }
            for (Future<?> worker : workers) {
                worker.get();
            }
        }
        assertThat(attempts).hasSize(requests.size());
        return List.copyOf(attempts);
    }

    private void assertExactlyTheStockIsReservedAndTheFiguresAddUp(ActivityId activityId, List<Reservation> accepted) {
        Map<SkuId, Long> acceptedUnits = unitsBySku(accepted);
        List<SkuStock> stock = adapter.stock(activityId).orElseThrow();
        Map<SkuId, StockLedger> ledgers = stock.stream().collect(Collectors.toMap(SkuStock::skuId, SkuStock::ledger));

        assertThat(acceptedUnits.get(HOT)).as("hot units accepted").isEqualTo(HOT_STOCK);
        assertThat(ledgers.get(HOT)).isEqualTo(new StockLedger(HOT_STOCK, HOT_STOCK, 0));
        assertThat(ledgers.get(PAIR_B)).isEqualTo(new StockLedger(PAIR_B_STOCK, PAIR_B_STOCK, 0));
        // A refused pair request that had deducted its first line would show up here as extra reserved units.
        assertThat(ledgers.get(PAIR_A)).isEqualTo(new StockLedger(PAIR_A_STOCK, acceptedUnits.get(PAIR_A), 0));
        for (SkuStock sku : stock) {
            StockLedger ledger = sku.ledger();
            assertThat(ledger.available() + ledger.reserved() + ledger.sold()).isEqualTo(ledger.total());
            assertThat(ledger.reserved()).as("reserved units of " + sku.skuId())
                    .isEqualTo(acceptedUnits.getOrDefault(sku.skuId(), 0L));
        }
    }

    private void assertEveryBuyerHoldsWhatTheirAcceptedRequestsSayWithinTheLimits(ActivityId activityId,
                                                                                 List<Reservation> accepted) {
        Map<BuyerId, List<Reservation>> byBuyer = accepted.stream().collect(Collectors.groupingBy(Reservation::buyerId));
        for (int b = 0; b < BUYERS; b++) {
            var buyer = new BuyerId("buyer-" + b);
            Map<SkuId, Long> held = adapter.holdings(activityId, buyer);
            assertThat(held).as("holdings of " + buyer).isEqualTo(unitsBySku(byBuyer.getOrDefault(buyer, List.of())));
            assertThat(held.getOrDefault(HOT, 0L)).isLessThanOrEqualTo(1L);
            assertThat(held.getOrDefault(PAIR_A, 0L)).isLessThanOrEqualTo(PAIR_LIMIT);
            assertThat(held.getOrDefault(PAIR_B, 0L)).isLessThanOrEqualTo(PAIR_LIMIT);
        }
    }

    private static void assertRefusalsAreSellOutsOrLimitsAndReplaysPointAtTheAcceptedReservation(
            List<Attempt> attempts, List<Reservation> accepted) {
        Map<String, ReservationId> acceptedByRequest = new HashMap<>();
        for (Reservation reservation : accepted) {
            ReservationId earlier = acceptedByRequest.put(reservation.buyerId() + "/" + reservation.requestId(),
                    reservation.id());
            assertThat(earlier).as("two reservations for one requestId of " + reservation.buyerId()).isNull();
        }
        for (Attempt attempt : attempts) {
            ReservationOutcome outcome = attempt.outcome();
            if (outcome instanceof Replayed(Reservation original)) {
                ReservationRequest request = attempt.request();
                assertThat(original.id()).isEqualTo(acceptedByRequest.get(request.buyerId() + "/" + request.requestId()));
                assertThat(original.status()).isEqualTo(ReservationStatus.RESERVED);
            } else if (!(outcome instanceof Reserved)) {
                assertThat(outcome).isInstanceOfAny(SoldOut.class, LimitExceeded.class);
            }
        }
    }

    private static Map<SkuId, Long> unitsBySku(List<Reservation> reservations) {
        return reservations.stream()
                .flatMap(reservation -> reservation.lines().stream())
                .collect(Collectors.groupingBy(ReservationLine::skuId, Collectors.summingLong(ReservationLine::quantity)));
    }
}
