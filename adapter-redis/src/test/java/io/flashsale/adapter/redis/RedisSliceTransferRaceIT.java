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
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Transfers among a sale's three slices run by many threads at once over connections of their own (as instances
 * would), each transfer carried by two runners racing through the same steps (the runner that opened it and the sweep
 * that thinks it crashed), each step sometimes sent twice in a row, while buyers reserve on slice 0. Afterwards every
 * unit is where the takes' answers put it: the slices' totals are the sale's units exactly, both runners of a transfer
 * got one answer, and each slice's ledger adds up with no segment below zero.
 */
@Timeout(120)
class RedisSliceTransferRaceIT {

    private static final SkuId HOT = new SkuId("hot");
    private static final long UNITS = 600;
    private static final SaleSlices THREE = new SaleSlices(3);
    private static final int RUNNERS = 8;
    private static final int BUYER_THREADS = 2;
    private static final int TRANSFERS = 1_000;
    private static final int ATTEMPTS_PER_BUYER_THREAD = 150;
    private static final int CONNECTIONS = 3;

    private final Activity sale = new Activity(new ActivityId("race-" + UUID.randomUUID().toString().substring(0, 12)),
            "race", Instant.now().minusSeconds(60), Instant.now().plus(Duration.ofHours(1)), PurchaseLimit.ONE,
            Duration.ofMinutes(15), List.of(new ActivityItem(HOT, UNITS, null, 4)), false, THREE);
    private final List<SaleSlice> slices = SliceFixture.slicesOf(sale);
    private final SliceFixture fixture = new SliceFixture(SharedRedis.commands());
    private final List<SharedRedis.Connection> connections = new ArrayList<>();

    private record Transfer(long id, int from, int to, long units) {
    }

    @AfterEach
    void forget() {
        connections.forEach(SharedRedis.Connection::close);
        fixture.forget(sale);
        SharedRedis.forget(sale.id());
    }

    @RepeatedTest(5)
    void givenRunnersRacingThroughTheSameTransfersWhileBuyersReserve_thenEveryUnitIsConservedExactly()
            throws Exception {
        fixture.warmUp(sale);
        List<RedisSliceStock> instances = new ArrayList<>();
        for (int c = 0; c < CONNECTIONS; c++) {
            SharedRedis.Connection connection = SharedRedis.connect();
            connections.add(connection);
            instances.add(new RedisSliceStock(connection.sync(), activityId -> { }));
        }
        long seed = System.nanoTime();
        SplittableRandom random = new SplittableRandom(seed);
        List<Transfer> transfers = new ArrayList<>();
        Queue<Transfer> work = new ConcurrentLinkedQueue<>();
        for (long id = 1; id <= TRANSFERS; id++) {
            int from = random.nextInt(3);
            var transfer = new Transfer(id, from, (from + 1 + random.nextInt(2)) % 3, 1 + random.nextInt(40));
            transfers.add(transfer);
            // Twice in a row: two runners take it on at about the same moment.
            work.add(transfer);
            work.add(transfer);
        }
        Map<Long, Long> answers = new ConcurrentHashMap<>();
        AtomicLong reserved = new AtomicLong();
        AtomicLong buyers = new AtomicLong();

        var gate = new CyclicBarrier(RUNNERS + BUYER_THREADS);
        try (ExecutorService pool = Executors.newFixedThreadPool(RUNNERS + BUYER_THREADS)) {
            List<Future<?>> threads = new ArrayList<>();
            for (int r = 0; r < RUNNERS; r++) {
                RedisSliceStock port = instances.get(r % CONNECTIONS);
                SplittableRandom own = random.split();
                threads.add(pool.submit(() -> {
                    gate.await();
                    for (Transfer transfer = work.poll(); transfer != null; transfer = work.poll()) {
                        run(port, transfer, own, answers);
                    }
                    return null;
                }));
            }
            for (int b = 0; b < BUYER_THREADS; b++) {
                threads.add(pool.submit(() -> {
                    gate.await();
                    for (int attempt = 0; attempt < ATTEMPTS_PER_BUYER_THREAD; attempt++) {
                        if (reserveOne("buyer-" + buyers.incrementAndGet())) {
                            reserved.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> thread : threads) {
                thread.get(90, TimeUnit.SECONDS);
            }
        }

        assertThat(answers).as("seed %d", seed).hasSize(TRANSFERS);
        long[] expectedTotals = new long[3];
        for (int k = 0; k < 3; k++) {
            expectedTotals[k] = THREE.shareOf(k, UNITS);
        }
        long shortTakes = 0;
        for (Transfer transfer : transfers) {
            long moved = answers.get(transfer.id());
            assertThat(moved).isBetween(0L, transfer.units());
            shortTakes += moved < transfer.units() ? 1 : 0;
            expectedTotals[transfer.from()] -= moved;
            expectedTotals[transfer.to()] += moved;
        }
        long totals = 0;
        long reservedInSlices = 0;
        for (int k = 0; k < 3; k++) {
            StockLedger ledger = fixture.ledger(slices.get(k), HOT);
            assertThat(ledger.total()).as("slice %d (seed %d)", k, seed).isEqualTo(expectedTotals[k]);
            assertThat(ledger.reserved() + ledger.sold() + ledger.available()).isEqualTo(ledger.total());
            assertThat(fixture.segments(slices.get(k), HOT)).allSatisfy(units -> assertThat(units).isNotNegative());
            totals += ledger.total();
            reservedInSlices += ledger.reserved();
        }
        System.out.printf("[slice-race] seed %d: %d of %d takes short, %d units reserved%n", seed, shortTakes,
                TRANSFERS, reserved.get());
        assertThat(totals).as("the sale's units (seed %d)", seed).isEqualTo(UNITS);
        assertThat(reservedInSlices).as("every accepted reservation, none taken away").isEqualTo(reserved.get());
    }

    /**
     * One runner's pass through a transfer: the take, sometimes sent again at once, then the credit of what it gave,
     * sometimes sent again too. Both runners of a transfer must get the same answer from the take.
     */
    private void run(RedisSliceStock port, Transfer transfer, SplittableRandom random, Map<Long, Long> answers) {
        SaleSlice from = slices.get(transfer.from());
        SaleSlice to = slices.get(transfer.to());
        long taken = port.take(from, HOT, transfer.id(), transfer.units()).orElseThrow();
        if (random.nextInt(4) == 0) {
            assertThat(port.take(from, HOT, transfer.id(), transfer.units())).hasValue(taken);
        }
        Long first = answers.putIfAbsent(transfer.id(), taken);
        assertThat(first == null ? taken : first).as("the other runner's answer to #%d", transfer.id())
                .isEqualTo(taken);
        assertThat(port.credit(to, HOT, transfer.id(), taken)).isTrue();
        if (random.nextInt(4) == 0) {
            assertThat(port.credit(to, HOT, transfer.id(), taken)).isTrue();
        }
    }

    /** One unit for a buyer, reserved in slice 0 (the id names it, so the reserve path's keys are slice 0's). */
    private boolean reserveOne(String buyer) {
        var id = ReservationId.of(slices.getFirst(), UUID.randomUUID().toString().replace("-", ""));
        ReservationOutcome outcome = SharedRedis.adapter().reserve(new ReservationRequest(id, new BuyerId(buyer),
                new RequestId("k-" + buyer), List.of(new ReservationLine(HOT, 1)), Instant.now()));
        return outcome instanceof ReservationOutcome.Reserved;
    }
}
