package io.flashsale.adapter.redis;

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
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import io.flashsale.domain.stock.StockLedger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many threads race 2,000 buyers' attempts (three each, one unit a time, 2 a buyer at most) at a sale of 3,000 units in
 * three slices through one adapter, each attempt's id naming the buyer's home slice as the service makes it. Each
 * slice decides its buyers' attempts on its share alone: no slice gives more than it holds, what the slices reserved
 * is what they answered Reserved, and no buyer holds more than the limit. Run again while transfers move units between
 * the slices at the same time: every unit is still accounted for.
 */
@Timeout(180)
class RedisSlicedReserveRaceIT {

    private static final SkuId HOT = new SkuId("hot");
    private static final long UNITS = 3_000;
    private static final int LIMIT = 2;
    private static final int BUYERS = 2_000;
    private static final int ATTEMPTS_PER_BUYER = 3;
    private static final int THREADS = 48;
    private static final int TRANSFER_THREADS = 4;
    private static final int MOST_TRANSFERS_PER_THREAD = 500;
    private static final SaleSlices THREE = new SaleSlices(3);

    private final RedisStockReservationAdapter adapter = SharedRedis.adapter();
    private final SliceFixture fixture = new SliceFixture(SharedRedis.commands());
    private final RedisSliceStock sliceStock = new RedisSliceStock(SharedRedis.commands(), activityId -> { });
    private final Activity sale = new Activity(new ActivityId("srr-" + UUID.randomUUID().toString().substring(0, 12)),
            "sliced race", Instant.now().minusSeconds(60), Instant.now().plus(Duration.ofHours(1)),
            new PurchaseLimit(LIMIT), Duration.ofMinutes(15), List.of(new ActivityItem(HOT, UNITS, null, 4)), false,
            THREE);
    private final List<SaleSlice> slices = SliceFixture.slicesOf(sale);

    private record Attempt(ReservationRequest request, ReservationOutcome outcome) {
    }

    @AfterEach
    void forget() {
        fixture.forget(sale);
        SharedRedis.forget(sale.id());
    }

    @RepeatedTest(3)
    void givenBuyersRacingAtEverySlice_thenEachSliceGivesAtMostItsShare_andEveryFigureAddsUp() throws Exception {
        adapter.warmUp(sale);

        List<Attempt> attempts = race(attemptsOfEveryBuyer(), () -> { });

        List<Attempt> reserved = accepted(attempts);
        long reservedInSlices = 0;
        for (SaleSlice slice : slices) {
            StockLedger ledger = fixture.ledger(slice, HOT);
            long share = THREE.shareOf(slice.index(), UNITS);
            assertThat(ledger.total()).as("slice %d", slice.index()).isEqualTo(share);
            assertThat(ledger.reserved()).as("slice %d gives at most its share", slice.index())
                    .isLessThanOrEqualTo(share)
                    .isEqualTo(reserved.stream().filter(attempt -> inSlice(attempt, slice)).count());
            assertFiguresAddUp(slice, ledger);
            reservedInSlices += ledger.reserved();
        }
        assertThat(reservedInSlices).as("what the slices gave").isEqualTo(reserved.size());
        assertThat(reservedInSlices).as("demand is above the stock").isEqualTo(UNITS);
        assertEveryBuyerHoldsWhatTheyWereGivenWithinTheLimit(reserved);
        assertThat(attempts).extracting(Attempt::outcome).allSatisfy(outcome -> assertThat(outcome).isInstanceOfAny(
                ReservationOutcome.Reserved.class, ReservationOutcome.LimitExceeded.class,
                ReservationOutcome.SoldOut.class));
    }

    @RepeatedTest(3)
    void givenTransfersBetweenTheSlicesWhileBuyersRace_thenEveryUnitIsConserved() throws Exception {
        adapter.warmUp(sale);
        AtomicBoolean buyersDone = new AtomicBoolean();
        AtomicLong transferIds = new AtomicLong();
        long seed = System.nanoTime();
        SplittableRandom random = new SplittableRandom(seed);
        List<Future<Long>> transfers = new ArrayList<>();

        List<Attempt> attempts;
        try (ExecutorService runners = Executors.newFixedThreadPool(TRANSFER_THREADS)) {
            for (int t = 0; t < TRANSFER_THREADS; t++) {
                SplittableRandom own = random.split();
                transfers.add(runners.submit(() -> transfer(own, transferIds, buyersDone)));
            }
            attempts = race(attemptsOfEveryBuyer(), () -> buyersDone.set(true));
            long moved = 0;
            for (Future<Long> runner : transfers) {
                moved += runner.get(60, TimeUnit.SECONDS);
            }
            System.out.printf("[sliced-race] seed %d: %d transfers moved %d units%n", seed, transferIds.get(), moved);
        }

        List<Attempt> reserved = accepted(attempts);
        long totals = 0;
        long reservedInSlices = 0;
        for (SaleSlice slice : slices) {
            StockLedger ledger = fixture.ledger(slice, HOT);
            assertThat(ledger.reserved()).as("slice %d (seed %d)", slice.index(), seed)
                    .isEqualTo(reserved.stream().filter(attempt -> inSlice(attempt, slice)).count());
            assertFiguresAddUp(slice, ledger);
            totals += ledger.total();
            reservedInSlices += ledger.reserved();
        }
        assertThat(totals).as("the sale's units (seed %d)", seed).isEqualTo(UNITS);
        assertThat(reservedInSlices).as("what the slices gave").isEqualTo(reserved.size());
        assertEveryBuyerHoldsWhatTheyWereGivenWithinTheLimit(reserved);
    }

    /**
     * Transfers between random slices until the buyers are done (or a bound): the take, then the credit of what it
     * gave, so no unit is in transit when it returns. The units moved.
     */
    private long transfer(SplittableRandom random, AtomicLong ids, AtomicBoolean buyersDone) {
        long moved = 0;
        for (int i = 0; i < MOST_TRANSFERS_PER_THREAD && !buyersDone.get(); i++) {
            long id = ids.incrementAndGet();
            int from = random.nextInt(3);
            int to = (from + 1 + random.nextInt(2)) % 3;
            long taken = sliceStock.take(slices.get(from), HOT, id, 1 + random.nextInt(30)).orElseThrow();
            assertThat(sliceStock.credit(slices.get(to), HOT, id, taken)).isTrue();
            moved += taken;
        }
        return moved;
    }

    /** Every buyer's three attempts of one unit, each under a request id of its own, shuffled. */
    private List<ReservationRequest> attemptsOfEveryBuyer() {
        List<ReservationRequest> requests = new ArrayList<>(BUYERS * ATTEMPTS_PER_BUYER);
        for (int b = 0; b < BUYERS; b++) {
            var buyer = new BuyerId("buyer-" + b);
            var home = new SaleSlice(sale.id(), THREE.homeOf(buyer), THREE);
            for (int a = 0; a < ATTEMPTS_PER_BUYER; a++) {
                var id = ReservationId.of(home, UUID.randomUUID().toString().replace("-", ""));
                requests.add(new ReservationRequest(id, buyer, new RequestId("k-" + a),
                        List.of(new ReservationLine(HOT, 1)), Instant.now()));
            }
        }
        Collections.shuffle(requests);
        return requests;
    }

    /** Every thread waits at the gate, then they all drain one queue of attempts; {@code done} once all are. */
    private List<Attempt> race(List<ReservationRequest> requests, Runnable done) throws Exception {
        Queue<ReservationRequest> queue = new ConcurrentLinkedQueue<>(requests);
        Queue<Attempt> attempts = new ConcurrentLinkedQueue<>();
        var gate = new CyclicBarrier(THREADS);
        try (ExecutorService pool = Executors.newFixedThreadPool(THREADS)) {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                workers.add(pool.submit(() -> {
                    gate.await(30, TimeUnit.SECONDS);
                    for (ReservationRequest request = queue.poll(); request != null; request = queue.poll()) {
                        attempts.add(new Attempt(request, adapter.reserve(request)));
                    }
                    return null;
                }));
            }
            for (Future<?> worker : workers) {
                worker.get(120, TimeUnit.SECONDS);
            }
        } finally {
            done.run();
        }
        assertThat(attempts).hasSize(requests.size());
        return List.copyOf(attempts);
    }

    private static List<Attempt> accepted(List<Attempt> attempts) {
        return attempts.stream().filter(attempt -> attempt.outcome() instanceof ReservationOutcome.Reserved).toList();
    }

    private static boolean inSlice(Attempt attempt, SaleSlice slice) {
        return attempt.request().id().slice().equals(slice);
    }

    /** total = reserved + sold + available, and no segment below zero. */
    private void assertFiguresAddUp(SaleSlice slice, StockLedger ledger) {
        assertThat(ledger.reserved() + ledger.sold() + ledger.available()).isEqualTo(ledger.total());
        assertThat(sliceStock.available(slice, HOT)).hasValue(ledger.available());
        assertThat(fixture.segments(slice, HOT)).as("slice %d's segments", slice.index())
                .allSatisfy(units -> assertThat(units).isNotNegative());
    }

    private void assertEveryBuyerHoldsWhatTheyWereGivenWithinTheLimit(List<Attempt> reserved) {
        Map<BuyerId, Long> given = reserved.stream().collect(Collectors.groupingBy(
                attempt -> attempt.request().buyerId(), Collectors.counting()));
        for (int b = 0; b < BUYERS; b++) {
            var buyer = new BuyerId("buyer-" + b);
            long held = adapter.holdings(sale.id(), buyer).getOrDefault(HOT, 0L);
            assertThat(held).as("%s holds", buyer).isEqualTo(given.getOrDefault(buyer, 0L))
                    .isLessThanOrEqualTo(LIMIT);
        }
        assertThat(given.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(reserved.size());
        assertThat(given).as("no buyer given more than the limit").allSatisfy((buyer, units) ->
                assertThat(units).isLessThanOrEqualTo(LIMIT));
    }
}
