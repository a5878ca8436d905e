package io.flashsale.application.reservation.service;

import io.flashsale.application.shared.port.out.StoreUnavailableException;
import io.flashsale.application.slice.port.in.TransferStockUseCase;
import io.flashsale.application.slice.port.out.SliceStockPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BucketLimit;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import io.flashsale.domain.slice.StockTransfer;
import io.flashsale.domain.stock.SkuStock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class ShortAtHomeTest {

    private static final ActivityId SALE = new ActivityId("sale");
    private static final SkuId SKU = new SkuId("sku-1");
    private static final Duration RETRY_AFTER = Duration.ofMillis(100);

    /** Each slice's available units of one SKU; a transfer moves what the source has, up to what was asked. */
    private static final class Shelf implements SliceStockPort, TransferStockUseCase {
        final long[] available;
        final Set<Integer> unloaded = new HashSet<>();
        final List<long[]> transfers = new ArrayList<>();
        volatile boolean down;
        volatile CountDownLatch hold;
        final AtomicInteger reads = new AtomicInteger();

        Shelf(long... available) {
            this.available = available;
        }

        synchronized ReservationOutcome reserve(ReservationRequest request) {
            int home = request.id().slice().index();
            long wanted = request.lines().getFirst().quantity();
            if (available[home] == 0) {
                return new ReservationOutcome.SoldOut(SKU);
            }
            if (available[home] < wanted) {
                return new ReservationOutcome.InsufficientStock(SKU, available[home]);
            }
            available[home] -= wanted;
            return new ReservationOutcome.Reserved(request.toReservation());
        }

        @Override
        public synchronized OptionalLong available(SaleSlice slice, SkuId skuId) {
            reads.incrementAndGet();
            return unloaded.contains(slice.index()) ? OptionalLong.empty() : OptionalLong.of(available[slice.index()]);
        }

        @Override
        public StockTransfer transfer(ActivityId activityId, SkuId skuId, int from, int to, long units) {
            CountDownLatch held = hold;
            if (held != null) {
                try {
                    held.await(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (down) {
                throw new StoreUnavailableException("mysql down", null);
            }
            synchronized (this) {
                long moved = Math.min(units, available[from]);
                available[from] -= moved;
                available[to] += moved;
                transfers.add(new long[] {from, to, units, moved});
                return null;
            }
        }

        @Override
        public OptionalLong take(SaleSlice slice, SkuId skuId, long transferId, long units) {
            throw new UnsupportedOperationException("the transfer above stands for take and credit");
        }

        @Override
        public boolean credit(SaleSlice slice, SkuId skuId, long transferId, long units) {
            throw new UnsupportedOperationException("the transfer above stands for take and credit");
        }

        @Override
        public Optional<List<SkuStock>> stock(SaleSlice slice) {
            throw new UnsupportedOperationException("the borrow reads one SKU's units");
        }
    }

    private static ReservationRequest attempt(int home, int slices, int quantity, String token) {
        var slice = new SaleSlice(SALE, home, new SaleSlices(slices));
        return new ReservationRequest(ReservationId.of(slice, token), new BuyerId("buyer-" + token),
                new RequestId(token), List.of(new ReservationLine(SKU, quantity)), Instant.EPOCH);
    }

    private static ShortAtHome shortAtHome(Shelf shelf, Duration borrowWait) {
        return new ShortAtHome(shelf, shelf, RETRY_AFTER, borrowWait);
    }

    private static ReservationOutcome decide(ShortAtHome handler, Shelf shelf, ReservationRequest request) {
        ReservationOutcome first = shelf.reserve(request);
        return first instanceof ReservationOutcome.Reserved ? first : handler.after(request, first, shelf::reserve);
    }

    @Test
    void givenEmptyHomeAndUnitsElsewhere_whenShort_thenItBorrowsItsShareFromTheRichestAndTheRetryReserves() {
        var shelf = new Shelf(0, 4, 8);

        ReservationOutcome outcome = decide(shortAtHome(shelf, Duration.ofSeconds(1)), shelf, attempt(0, 3, 1, "t1"));

        assertThat(outcome).isInstanceOf(ReservationOutcome.Reserved.class);
        // The others hold 12: the home's share is 12 / 3 = 4, from slice 2, the richest.
        assertThat(shelf.transfers).singleElement().satisfies(t -> assertThat(t).containsExactly(2, 0, 4, 4));
        assertThat(shelf.available).containsExactly(3, 4, 4);
    }

    @Test
    void givenHomeHoldingLessThanAsked_whenShort_thenItBorrowsAtLeastWhatTheAttemptLacks() {
        var shelf = new Shelf(2, 0, 30);

        ReservationOutcome outcome = decide(shortAtHome(shelf, Duration.ofSeconds(1)), shelf, attempt(0, 3, 15, "t1"));

        assertThat(outcome).isInstanceOf(ReservationOutcome.Reserved.class);
        // The share would be 10; the attempt lacks 13.
        assertThat(shelf.transfers).singleElement().satisfies(t -> assertThat(t).containsExactly(2, 0, 13, 13));
        assertThat(shelf.available).containsExactly(0, 0, 17);
    }

    @Test
    void givenEverySliceEmpty_whenShort_thenSoldOutAsTheHomeSaidAndNothingMoves() {
        var shelf = new Shelf(0, 0, 0);

        ReservationOutcome outcome = decide(shortAtHome(shelf, Duration.ofSeconds(1)), shelf, attempt(1, 3, 1, "t1"));

        assertThat(outcome).isEqualTo(new ReservationOutcome.SoldOut(SKU));
        assertThat(shelf.transfers).isEmpty();
    }

    @Test
    void givenTheOthersEmptyButOneNotLoaded_whenShort_thenTryAgainNotSoldOut() {
        var shelf = new Shelf(0, 0, 0);
        shelf.unloaded.add(2);

        ReservationOutcome outcome = decide(shortAtHome(shelf, Duration.ofSeconds(1)), shelf, attempt(0, 3, 1, "t1"));

        assertThat(outcome).isEqualTo(new ReservationOutcome.TryAgain(SKU, RETRY_AFTER));
    }

    @Test
    void givenTheTransferCannotBeRecorded_whenShort_thenTryAgainAndNothingMoved() {
        var shelf = new Shelf(0, 5, 5);
        shelf.down = true;

        ReservationOutcome outcome = decide(shortAtHome(shelf, Duration.ofSeconds(1)), shelf, attempt(0, 3, 1, "t1"));

        assertThat(outcome).isEqualTo(new ReservationOutcome.TryAgain(SKU, RETRY_AFTER));
        assertThat(shelf.available).containsExactly(0, 5, 5);
    }

    @Test
    void givenTheRetryStillShortWhileAnotherSliceHoldsUnits_thenTryAgain() {
        var shelf = new Shelf(0, 1, 1);

        // Asks 3: the others hold 2 in all, the borrow brings 1, the retry is still short while slice 2 holds 1.
        ReservationOutcome outcome = decide(shortAtHome(shelf, Duration.ofSeconds(1)), shelf, attempt(0, 3, 3, "t1"));

        assertThat(outcome).isEqualTo(new ReservationOutcome.TryAgain(SKU, RETRY_AFTER));
        assertThat(shelf.available[0] + shelf.available[1] + shelf.available[2]).isEqualTo(2);
    }

    @Test
    void givenAttemptWithABucket_whenRetried_thenTheRetryTakesNoSecondToken() {
        var shelf = new Shelf(0, 6, 0);
        var retried = new ArrayList<ReservationRequest>();
        ReservationRequest request = attempt(0, 3, 1, "t1").behind(new BucketLimit(5, 1, Duration.ofSeconds(1)));

        shortAtHome(shelf, Duration.ofSeconds(1)).after(request, new ReservationOutcome.SoldOut(SKU), again -> {
            retried.add(again);
            return shelf.reserve(again);
        });

        assertThat(retried).singleElement().satisfies(again -> {
            assertThat(again.buyerBucket()).isNull();
            assertThat(again.id()).isEqualTo(request.id());
        });
    }

    @Test
    void givenSaleOfOneSliceOrNoHandler_whenShort_thenTheRefusalStands() {
        var shelf = new Shelf(0, 5);
        var one = new ReservationRequest(ReservationId.of(SALE, "t1"), new BuyerId("b"), new RequestId("t1"),
                List.of(new ReservationLine(SKU, 1)), Instant.EPOCH);

        assertThat(shortAtHome(shelf, Duration.ofSeconds(1)).after(one, new ReservationOutcome.SoldOut(SKU),
                shelf::reserve)).isEqualTo(new ReservationOutcome.SoldOut(SKU));
        assertThat(ShortAtHome.none().after(attempt(0, 2, 1, "t2"), new ReservationOutcome.SoldOut(SKU),
                shelf::reserve)).isEqualTo(new ReservationOutcome.SoldOut(SKU));
        assertThat(shelf.transfers).isEmpty();
    }

    @Test
    @Timeout(20)
    void givenACrowdAtAnEmptyHome_whenShortTogether_thenOneBorrowServesThemAll() throws Exception {
        for (int round = 0; round < 20; round++) {
            var shelf = new Shelf(0, 300, 300);
            shelf.hold = new CountDownLatch(1);
            ShortAtHome handler = shortAtHome(shelf, Duration.ofSeconds(5));
            int crowd = 32;
            var arrived = new CountDownLatch(crowd);
            List<Future<ReservationOutcome>> answers = new ArrayList<>();
            try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < crowd; i++) {
                    ReservationRequest request = attempt(0, 3, 1, "r" + round + "x" + i);
                    answers.add(pool.submit(() -> {
                        ReservationOutcome first = shelf.reserve(request);
                        arrived.countDown();
                        return handler.after(request, first, shelf::reserve);
                    }));
                }
                assertThat(arrived.await(5, TimeUnit.SECONDS)).isTrue();
                // Every attempt met the empty home before the one borrow was let through.
                Thread.sleep(20);
                shelf.hold.countDown();
                for (Future<ReservationOutcome> answer : answers) {
                    assertThat(answer.get(10, TimeUnit.SECONDS)).isInstanceOf(ReservationOutcome.Reserved.class);
                }
            }
            // The share of 600 over 3 slices is 200: enough for the 32 attempts, in one transfer.
            assertThat(shelf.transfers).as("round " + round).hasSize(1);
            assertThat(shelf.available[0] + shelf.available[1] + shelf.available[2]).isEqualTo(600 - crowd);
        }
    }

    @Test
    @Timeout(10)
    void givenABorrowThatOutlastsTheWait_whenAnotherAttemptWaitsForIt_thenThatOneIsToldToTryAgain()
            throws Exception {
        var shelf = new Shelf(0, 10, 10);
        shelf.hold = new CountDownLatch(1);
        ShortAtHome handler = shortAtHome(shelf, Duration.ofMillis(50));
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<ReservationOutcome> borrower = pool.submit(() -> handler.after(attempt(0, 3, 1, "a"),
                    new ReservationOutcome.SoldOut(SKU), shelf::reserve));
            while (shelf.reads.get() < 3) {
                Thread.onSpinWait();
            }
            Thread.sleep(20);

            ReservationOutcome waiter = handler.after(attempt(0, 3, 1, "b"), new ReservationOutcome.SoldOut(SKU),
                    shelf::reserve);

            assertThat(waiter).isEqualTo(new ReservationOutcome.TryAgain(SKU, RETRY_AFTER));
            shelf.hold.countDown();
            assertThat(borrower.get(5, TimeUnit.SECONDS)).isInstanceOf(ReservationOutcome.Reserved.class);
        }
    }
}
