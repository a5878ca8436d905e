package io.flashsale.domain.stock;

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
import io.flashsale.domain.reservation.ReservationOutcome.Ended;
import io.flashsale.domain.reservation.ReservationOutcome.InsufficientStock;
import io.flashsale.domain.reservation.ReservationOutcome.LimitExceeded;
import io.flashsale.domain.reservation.ReservationOutcome.NotStarted;
import io.flashsale.domain.reservation.ReservationOutcome.Replayed;
import io.flashsale.domain.reservation.ReservationOutcome.Reserved;
import io.flashsale.domain.reservation.ReservationOutcome.Settled;
import io.flashsale.domain.reservation.ReservationOutcome.SoldOut;
import io.flashsale.domain.reservation.ReservationOutcome.UnknownSku;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.reservation.ReservationStatus;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

class ActivityLedgerTest {

    private static final ActivityId ACTIVITY = new ActivityId("sale-1");
    private static final Instant STARTS_AT = Instant.parse("2030-06-01T10:00:00Z");
    private static final Instant ENDS_AT = Instant.parse("2030-06-01T12:00:00Z");
    private static final Instant OPEN = STARTS_AT.plusSeconds(60);

    private final AtomicInteger tokens = new AtomicInteger();

    private static ActivityLedger ledgerOf(int perUserLimit, ActivityItem... items) {
        return ActivityLedger.warmUp(new Activity(ACTIVITY, "Sale", STARTS_AT, ENDS_AT, new PurchaseLimit(perUserLimit),
                Duration.ofMinutes(15), List.of(items)));
    }

    private static ActivityItem item(String sku, long stock) {
        return ActivityItem.of(sku, stock);
    }

    private static ReservationLine line(String sku, int quantity) {
        return new ReservationLine(new SkuId(sku), quantity);
    }

    private static SkuId sku(String sku) {
        return new SkuId(sku);
    }

    private ReservationRequest request(String buyer, String requestId, Instant at, ReservationLine... lines) {
        return new ReservationRequest(ReservationId.of(ACTIVITY, "t" + tokens.incrementAndGet()), new BuyerId(buyer),
                new RequestId(requestId), List.of(lines), at);
    }

    private ReservationRequest request(String buyer, ReservationLine... lines) {
        return request(buyer, "req-" + tokens.get(), OPEN, lines);
    }

    private static Reservation reserved(ReservationOutcome outcome) {
        if (outcome instanceof Reserved(Reservation reservation)) {
            return reservation;
        }
        return fail("expected Reserved but was " + outcome);
    }

    private static StockLedger ledger(ActivityLedger activity, String sku) {
        return activity.stock().stream().filter(stock -> stock.skuId().equals(sku(sku))).findFirst().orElseThrow().ledger();
    }

    @Test
    void whenWarmedUp_thenEveryItemHasItsFullStockInItemOrder() {
        ActivityLedger ledger = ledgerOf(1, item("z", 3), item("a", 0));

        assertThat(ledger.stock()).containsExactly(
                new SkuStock(sku("z"), StockLedger.of(3)), new SkuStock(sku("a"), StockLedger.of(0)));
    }

    @Test
    void givenStockOfTen_whenThreeReserved_thenReservationRecordedAndUnitsHeld() {
        ActivityLedger ledger = ledgerOf(5, item("a", 10));
        ReservationRequest request = request("alice", line("a", 3));

        Reservation reservation = reserved(ledger.reserve(request));

        assertThat(reservation).isEqualTo(request.toReservation());
        assertThat(reservation.status()).isEqualTo(ReservationStatus.RESERVED);
        assertThat(ledger(ledger, "a")).isEqualTo(new StockLedger(10, 3, 0));
        assertThat(ledger.held(new BuyerId("alice"), sku("a"))).isEqualTo(3);
        assertThat(ledger.reservation(request.id())).contains(reservation);
    }

    @Test
    void givenStockOfTen_whenElevenRequested_thenInsufficientStockAndNothingDeducted() {
        ActivityLedger ledger = ledgerOf(1000, item("a", 10));

        assertThat(ledger.reserve(request("alice", line("a", 11)))).isEqualTo(new InsufficientStock(sku("a"), 10));
        assertThat(ledger(ledger, "a")).isEqualTo(StockLedger.of(10));
        assertThat(ledger.holdings(new BuyerId("alice"))).isEmpty();
    }

    @Test
    void givenNothingAvailable_whenOneRequested_thenSoldOutRatherThanInsufficientStock() {
        ActivityLedger ledger = ledgerOf(1, item("a", 1));
        reserved(ledger.reserve(request("alice", line("a", 1))));

        assertThat(ledger.reserve(request("bob", line("a", 1)))).isEqualTo(new SoldOut(sku("a")));
    }

    @Test
    void givenSameBuyerAndRequestId_whenSentAgain_thenReplayedFirstEvenAfterTheSaleEndedAndStockRanOut() {
        ActivityLedger ledger = ledgerOf(1, item("a", 1));
        Reservation first = reserved(ledger.reserve(request("alice", "key", OPEN, line("a", 1))));

        assertThat(ledger.reserve(request("alice", "key", OPEN, line("a", 1)))).isEqualTo(new Replayed(first));
        assertThat(ledger.reserve(request("alice", "key", ENDS_AT.plusSeconds(1), line("a", 1)))).isEqualTo(new Replayed(first));
        assertThat(ledger.reserve(request("alice", "key", OPEN, line("nope", 1)))).isEqualTo(new Replayed(first));
        assertThat(ledger(ledger, "a")).isEqualTo(new StockLedger(1, 1, 0));
    }

    @Test
    void givenSameRequestIdFromAnotherBuyer_thenItIsANewAttempt() {
        ActivityLedger ledger = ledgerOf(1, item("a", 5));
        Reservation alices = reserved(ledger.reserve(request("alice", "key", OPEN, line("a", 1))));

        Reservation bobs = reserved(ledger.reserve(request("bob", "key", OPEN, line("a", 1))));

        assertThat(bobs.id()).isNotEqualTo(alices.id());
        assertThat(ledger(ledger, "a").reserved()).isEqualTo(2);
    }

    @Test
    void givenRefusedAttempt_whenTheSameRequestIdComesBack_thenItIsDecidedAgain() {
        ActivityLedger ledger = ledgerOf(1, item("a", 1));
        Reservation alices = reserved(ledger.reserve(request("alice", line("a", 1))));
        assertThat(ledger.reserve(request("bob", "key", OPEN, line("a", 1)))).isEqualTo(new SoldOut(sku("a")));
        ledger.release(alices.id());

        reserved(ledger.reserve(request("bob", "key", OPEN, line("a", 1))));
    }

    @Test
    void givenRequestBeforeStart_thenNotStartedWithStartsAt() {
        ActivityLedger ledger = ledgerOf(1, item("a", 1));

        assertThat(ledger.reserve(request("alice", "k", STARTS_AT.minusNanos(1), line("a", 1))))
                .isEqualTo(new NotStarted(STARTS_AT));
        reserved(ledger.reserve(request("alice", "k", STARTS_AT, line("a", 1))));
    }

    @Test
    void givenRequestAtEnd_thenEndedWithEndsAt() {
        ActivityLedger ledger = ledgerOf(1, item("a", 1));

        assertThat(ledger.reserve(request("alice", "k", ENDS_AT, line("a", 1)))).isEqualTo(new Ended(ENDS_AT));
        reserved(ledger.reserve(request("alice", "k", ENDS_AT.minusNanos(1), line("a", 1))));
    }

    @Test
    void givenUnknownSkuOutsideTheWindow_thenTheWindowIsReported() {
        ActivityLedger ledger = ledgerOf(1, item("a", 1));

        assertThat(ledger.reserve(request("alice", "k", ENDS_AT, line("nope", 1)))).isEqualTo(new Ended(ENDS_AT));
    }

    @Test
    void givenUnknownSkuOnTheLastLine_thenUnknownSkuIsReportedBeforeLimitOrStockOfEarlierLines() {
        ActivityLedger ledger = ledgerOf(1, item("a", 10), item("b", 0));

        assertThat(ledger.reserve(request("alice", line("a", 2), line("b", 1), line("nope", 1))))
                .isEqualTo(new UnknownSku(sku("nope")));
    }

    @Test
    void givenLineOverLimitAndOutOfStock_thenTheLimitIsCheckedFirst() {
        ActivityLedger ledger = ledgerOf(2, item("a", 1));

        assertThat(ledger.reserve(request("alice", line("a", 3)))).isEqualTo(new LimitExceeded(sku("a"), 2, 0));
    }

    @Test
    void givenSeveralFailingLines_thenTheFirstInLineOrderIsReported() {
        ActivityLedger ledger = ledgerOf(1, item("a", 10), item("gone", 0), item("b", 10));

        assertThat(ledger.reserve(request("alice", line("a", 1), line("gone", 1), line("b", 2))))
                .isEqualTo(new SoldOut(sku("gone")));
        assertThat(ledger.reserve(request("alice", line("a", 1), line("b", 2), line("gone", 1))))
                .isEqualTo(new LimitExceeded(sku("b"), 1, 0));
    }

    @Test
    void givenSecondLineFails_thenTheFirstLineIsNotDeductedNorHeld() {
        ActivityLedger ledger = ledgerOf(5, item("a", 10), item("b", 2));

        assertThat(ledger.reserve(request("alice", line("a", 4), line("b", 3)))).isEqualTo(new InsufficientStock(sku("b"), 2));

        assertThat(ledger.stock()).containsExactly(
                new SkuStock(sku("a"), StockLedger.of(10)), new SkuStock(sku("b"), StockLedger.of(2)));
        assertThat(ledger.holdings(new BuyerId("alice"))).isEmpty();
    }

    @Test
    void givenLimitOfThree_whenHoldingsAccumulate_thenLimitExceededCarriesLimitAndHeld() {
        ActivityLedger ledger = ledgerOf(3, item("a", 10));
        reserved(ledger.reserve(request("alice", line("a", 1))));
        reserved(ledger.reserve(request("alice", line("a", 2))));

        assertThat(ledger.reserve(request("alice", line("a", 1)))).isEqualTo(new LimitExceeded(sku("a"), 3, 3));
    }

    @Test
    void givenItemOverride_thenItsLimitAppliesToThatSkuOnly() {
        ActivityLedger ledger = ledgerOf(1, item("a", 10), new ActivityItem(sku("b"), 10, 4, 1));

        reserved(ledger.reserve(request("alice", line("a", 1), line("b", 4))));

        assertThat(ledger.reserve(request("alice", line("b", 1)))).isEqualTo(new LimitExceeded(sku("b"), 4, 4));
    }

    @Test
    void whenReleased_thenUnitsAndAllowanceComeBackAndTheReservationIsCancelled() {
        ActivityLedger ledger = ledgerOf(1, item("a", 1), item("b", 3));
        Reservation reservation = reserved(ledger.reserve(request("alice", line("a", 1), line("b", 1))));

        assertThat(ledger.release(reservation.id())).isTrue();

        assertThat(ledger.stock()).containsExactly(
                new SkuStock(sku("a"), StockLedger.of(1)), new SkuStock(sku("b"), StockLedger.of(3)));
        assertThat(ledger.held(new BuyerId("alice"), sku("a"))).isZero();
        assertThat(ledger.holdings(new BuyerId("alice"))).isEmpty();
        assertThat(ledger.reservation(reservation.id()).orElseThrow().status()).isEqualTo(ReservationStatus.CANCELLED);
        reserved(ledger.reserve(request("alice", line("a", 1))));
    }

    @Test
    void givenReleased_whenReleasedOrConfirmedAgain_thenFalseAndNothingMoves() {
        ActivityLedger ledger = ledgerOf(1, item("a", 5));
        Reservation reservation = reserved(ledger.reserve(request("alice", line("a", 1))));
        ledger.release(reservation.id());

        assertThat(ledger.release(reservation.id())).isFalse();
        assertThat(ledger.confirm(reservation.id())).isFalse();

        assertThat(ledger(ledger, "a")).isEqualTo(StockLedger.of(5));
        assertThat(ledger.reservation(reservation.id()).orElseThrow().status()).isEqualTo(ReservationStatus.CANCELLED);
    }

    @Test
    void whenConfirmed_thenReservedBecomesSoldTheBuyerStillHoldsItAndTheRecordLeaves() {
        ActivityLedger ledger = ledgerOf(2, item("a", 5));
        Reservation reservation = reserved(ledger.reserve(request("alice", "key-1", OPEN, line("a", 2))));

        assertThat(ledger.confirm(reservation.id())).isTrue();

        assertThat(ledger(ledger, "a")).isEqualTo(new StockLedger(5, 0, 2));
        assertThat(ledger.holdings(new BuyerId("alice"))).containsExactly(Map.entry(sku("a"), 2L));
        assertThat(ledger.reservation(reservation.id())).isEmpty();
        assertThat(ledger.reserve(request("alice", "key-1", OPEN, line("a", 2))))
                .isEqualTo(new Settled(reservation.id()));
        assertThat(ledger(ledger, "a")).isEqualTo(new StockLedger(5, 0, 2));
    }

    @Test
    void givenConfirmed_whenConfirmedOrReleasedAgain_thenFalseAndNothingMoves() {
        ActivityLedger ledger = ledgerOf(2, item("a", 5));
        Reservation reservation = reserved(ledger.reserve(request("alice", line("a", 2))));
        ledger.confirm(reservation.id());

        assertThat(ledger.confirm(reservation.id())).isFalse();
        assertThat(ledger.release(reservation.id())).isFalse();

        assertThat(ledger(ledger, "a")).isEqualTo(new StockLedger(5, 0, 2));
        assertThat(ledger.held(new BuyerId("alice"), sku("a"))).isEqualTo(2);
    }

    @Test
    void givenUnknownReservation_thenReleaseAndConfirmAreFalse() {
        ActivityLedger ledger = ledgerOf(1, item("a", 5));
        ReservationId unknown = ReservationId.of(ACTIVITY, "nope");

        assertThat(ledger.release(unknown)).isFalse();
        assertThat(ledger.confirm(unknown)).isFalse();
        assertThat(ledger.reservation(unknown)).isEmpty();
    }

    @Test
    void whenFailed_thenTheReservationIsFailedAndNoUnitMovesNorComesBackToTheBuyer() {
        ActivityLedger ledger = ledgerOf(1, item("a", 1), item("b", 3));
        Reservation reservation = reserved(ledger.reserve(request("alice", line("a", 1), line("b", 1))));

        assertThat(ledger.fail(reservation.id())).isTrue();

        assertThat(ledger.stock()).containsExactly(
                new SkuStock(sku("a"), new StockLedger(1, 1, 0)), new SkuStock(sku("b"), new StockLedger(3, 1, 0)));
        assertThat(ledger.holdings(new BuyerId("alice"))).containsOnly(Map.entry(sku("a"), 1L), Map.entry(sku("b"), 1L));
        assertThat(ledger.reservation(reservation.id())).contains(reservation.transitionTo(ReservationStatus.FAILED));
        assertThat(ledger.reserve(request("bob", line("a", 1)))).isEqualTo(new SoldOut(sku("a")));
        assertThat(ledger.reserve(request("alice", line("b", 1)))).isEqualTo(new LimitExceeded(sku("b"), 1, 1));
    }

    @Test
    void givenFailed_whenFailedConfirmedOrReleasedAgain_thenFalseAndNothingMoves() {
        ActivityLedger ledger = ledgerOf(2, item("a", 5));
        Reservation reservation = reserved(ledger.reserve(request("alice", line("a", 2))));
        ledger.fail(reservation.id());

        assertThat(ledger.fail(reservation.id())).isFalse();
        assertThat(ledger.confirm(reservation.id())).isFalse();
        assertThat(ledger.release(reservation.id())).isFalse();

        assertThat(ledger(ledger, "a")).isEqualTo(new StockLedger(5, 2, 0));
        assertThat(ledger.held(new BuyerId("alice"), sku("a"))).isEqualTo(2);
        assertThat(ledger.reservation(reservation.id()).orElseThrow().status()).isEqualTo(ReservationStatus.FAILED);
    }

    @Test
    void givenConfirmedOrReleased_whenFailed_thenFalseAndTheStatusStays() {
        ActivityLedger ledger = ledgerOf(2, item("a", 5));
        Reservation ordered = reserved(ledger.reserve(request("alice", line("a", 1))));
        Reservation cancelled = reserved(ledger.reserve(request("alice", line("a", 1))));
        ledger.confirm(ordered.id());
        ledger.release(cancelled.id());

        assertThat(ledger.fail(ordered.id())).isFalse();
        assertThat(ledger.fail(cancelled.id())).isFalse();
        assertThat(ledger.fail(ReservationId.of(ACTIVITY, "nope"))).isFalse();

        assertThat(ledger(ledger, "a")).isEqualTo(new StockLedger(5, 0, 1));
        assertThat(ledger.reservation(ordered.id())).isEmpty();
        assertThat(ledger.reservation(cancelled.id()).orElseThrow().status()).isEqualTo(ReservationStatus.CANCELLED);
    }

    @Test
    void givenFailed_whenTheSameRequestIdComesBack_thenReplayedAsFailed() {
        ActivityLedger ledger = ledgerOf(1, item("a", 5));
        Reservation reservation = reserved(ledger.reserve(request("alice", "key-1", OPEN, line("a", 1))));
        ledger.fail(reservation.id());

        assertThat(ledger.reserve(request("alice", "key-1", OPEN, line("a", 1))))
                .isEqualTo(new Replayed(reservation.transitionTo(ReservationStatus.FAILED)));
        assertThat(ledger(ledger, "a")).isEqualTo(new StockLedger(5, 1, 0));
    }

    @Test
    void holdingsListOnlySkusTheBuyerStillHolds() {
        ActivityLedger ledger = ledgerOf(3, item("a", 5), item("b", 5));
        reserved(ledger.reserve(request("alice", line("a", 2))));
        Reservation b = reserved(ledger.reserve(request("alice", line("b", 1))));

        ledger.release(b.id());

        assertThat(ledger.holdings(new BuyerId("alice"))).containsExactly(Map.entry(sku("a"), 2L));
        assertThat(ledger.holdings(new BuyerId("bob"))).isEmpty();
        assertThat(ledger.held(new BuyerId("bob"), sku("a"))).isZero();
    }

    // ---- giving back what an order held: restore, and paying ----

    private Reservation ordered(ActivityLedger ledger, String buyer, ReservationLine... lines) {
        Reservation reservation = reserved(ledger.reserve(request(buyer, lines)));
        assertThat(ledger.confirm(reservation.id())).isTrue();
        return reservation;
    }

    /** The order of a reservation as the database of record holds it: buyer, request and lines come from there. */
    private static boolean restore(ActivityLedger ledger, Reservation order, ReservationStatus finalStatus) {
        return ledger.restore(order.id(), order.buyerId(), order.requestId(), order.lines(), finalStatus)
                .equals(Optional.of(ReservationStatus.ORDERED));
    }

    @Test
    void givenOrdered_whenRestoredAsCancelled_thenSoldUnitsAndAllowanceComeBackAndTheReservationIsCancelled() {
        ActivityLedger ledger = ledgerOf(2, item("a", 5), item("b", 3));
        Reservation reservation = ordered(ledger, "alice", line("a", 2), line("b", 1));
        ordered(ledger, "bob", line("a", 1));

        assertThat(restore(ledger, reservation, ReservationStatus.CANCELLED)).isTrue();

        assertThat(ledger.stock()).containsExactly(
                new SkuStock(sku("a"), new StockLedger(5, 0, 1)), new SkuStock(sku("b"), StockLedger.of(3)));
        assertThat(ledger.holdings(new BuyerId("alice"))).isEmpty();
        assertThat(ledger.held(new BuyerId("bob"), sku("a"))).isEqualTo(1);
        assertThat(ledger.reservation(reservation.id())).isEmpty();
        reserved(ledger.reserve(request("alice", line("a", 2))));
    }

    @Test
    void givenOrdered_whenRestoredAsExpired_thenTheReservationIsExpiredAndNoCancellationTimeIsRecorded() {
        ActivityLedger ledger = ledgerOf(1, item("a", 1));
        Reservation reservation = ordered(ledger, "alice", line("a", 1));

        assertThat(restore(ledger, reservation, ReservationStatus.EXPIRED)).isTrue();

        assertThat(ledger(ledger, "a")).isEqualTo(StockLedger.of(1));
        assertThat(ledger.reservation(reservation.id())).isEmpty();
        assertThat(ledger.cancelledAt(reservation.id())).isEmpty();
        reserved(ledger.reserve(request("bob", line("a", 1))));
    }

    @Test
    void givenRestored_whenRestoredAgainEitherWay_thenFalseAndNothingIsGivenBackTwice() {
        ActivityLedger ledger = ledgerOf(3, item("a", 5));
        Reservation reservation = ordered(ledger, "alice", line("a", 2));
        ordered(ledger, "alice", line("a", 1));
        restore(ledger, reservation, ReservationStatus.CANCELLED);

        assertThat(restore(ledger, reservation, ReservationStatus.CANCELLED)).isFalse();
        assertThat(restore(ledger, reservation, ReservationStatus.EXPIRED)).isFalse();
        assertThat(ledger.markPaid(reservation.id())).isFalse();

        assertThat(ledger.restore(reservation.id(), reservation.buyerId(), reservation.requestId(),
                reservation.lines(), ReservationStatus.EXPIRED)).contains(ReservationStatus.CANCELLED);
        assertThat(ledger(ledger, "a")).isEqualTo(new StockLedger(5, 0, 1));
        assertThat(ledger.held(new BuyerId("alice"), sku("a"))).isEqualTo(1);
        assertThat(ledger.reserve(request("alice", reservation.requestId().value(), OPEN, line("a", 2))))
                .isEqualTo(new Settled(reservation.id()));
    }

    @Test
    void givenReservedFailedReleasedOrUnknown_whenRestored_thenFalseAndNothingMoves() {
        ActivityLedger ledger = ledgerOf(5, item("a", 10));
        Reservation reserved = reserved(ledger.reserve(request("alice", line("a", 1))));
        Reservation failed = reserved(ledger.reserve(request("alice", line("a", 1))));
        Reservation released = reserved(ledger.reserve(request("alice", line("a", 1))));
        ledger.fail(failed.id());
        ledger.release(released.id());
        Reservation unknown = new Reservation(ReservationId.of(ACTIVITY, "nope"), ACTIVITY, new BuyerId("alice"),
                new RequestId("nope"), List.of(line("a", 1)), ReservationStatus.ORDERED, OPEN);
        // Another reservation's request: its entry names that one, not this id.
        Reservation otherRequest = new Reservation(ReservationId.of(ACTIVITY, "other"), ACTIVITY,
                reserved.buyerId(), reserved.requestId(), List.of(line("a", 1)), ReservationStatus.ORDERED, OPEN);

        for (Reservation order : List.of(reserved, failed, released, unknown, otherRequest)) {
            assertThat(restore(ledger, order, ReservationStatus.CANCELLED)).as(order.id().value()).isFalse();
            assertThat(restore(ledger, order, ReservationStatus.EXPIRED)).as(order.id().value()).isFalse();
        }

        assertThat(ledger(ledger, "a")).isEqualTo(new StockLedger(10, 2, 0));
        assertThat(ledger.held(new BuyerId("alice"), sku("a"))).isEqualTo(2);
        assertThat(ledger.reservation(reserved.id()).orElseThrow().status()).isEqualTo(ReservationStatus.RESERVED);
    }

    @Test
    void whenRestoringToAStatusThatKeepsOrNeverHadTheUnits_thenRefusedAsAProgrammingError() {
        ActivityLedger ledger = ledgerOf(1, item("a", 5));
        Reservation reservation = ordered(ledger, "alice", line("a", 1));

        for (ReservationStatus wrong : List.of(ReservationStatus.PAID, ReservationStatus.ORDERED,
                ReservationStatus.RESERVED, ReservationStatus.FAILED)) {
            assertThatThrownBy(() -> restore(ledger, reservation, wrong))
                    .as(wrong.name()).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> restore(ledger, reservation, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(ledger(ledger, "a")).isEqualTo(new StockLedger(5, 0, 1));
    }

    @Test
    void givenTenSoldToTenBuyers_whenThreeAreCancelledAndTwoExpire_thenFiveNewBuyersGetThemAndTheSixthIsRefused() {
        ActivityLedger ledger = ledgerOf(1, item("a", 10));
        List<Reservation> sold = new ArrayList<>();
        for (int buyer = 0; buyer < 10; buyer++) {
            sold.add(ordered(ledger, "first-" + buyer, line("a", 1)));
        }
        assertThat(ledger.reserve(request("late", line("a", 1)))).isEqualTo(new SoldOut(sku("a")));

        for (int i = 0; i < 5; i++) {
            assertThat(restore(ledger, sold.get(i), i < 3 ? ReservationStatus.CANCELLED : ReservationStatus.EXPIRED))
                    .isTrue();
        }

        for (int buyer = 0; buyer < 5; buyer++) {
            reserved(ledger.reserve(request("second-" + buyer, line("a", 1))));
        }
        assertThat(ledger.reserve(request("second-5", line("a", 1)))).isEqualTo(new SoldOut(sku("a")));
        assertThat(ledger(ledger, "a")).isEqualTo(new StockLedger(10, 5, 5));
    }

    @Test
    void givenOrdered_whenMarkedPaid_thenNothingToMarkAndTheUnitsStaySoldAndHeld() {
        ActivityLedger ledger = ledgerOf(1, item("a", 5));
        Reservation reservation = ordered(ledger, "alice", line("a", 1));

        assertThat(ledger.markPaid(reservation.id())).isFalse();

        assertThat(ledger(ledger, "a")).isEqualTo(new StockLedger(5, 0, 1));
        assertThat(ledger.held(new BuyerId("alice"), sku("a"))).isEqualTo(1);
        assertThat(ledger.reservation(reservation.id())).isEmpty();
    }

    @Test
    void givenNotOrdered_whenMarkedPaid_thenFalseAndTheStatusStays() {
        ActivityLedger ledger = ledgerOf(2, item("a", 5));
        Reservation reserved = reserved(ledger.reserve(request("alice", line("a", 1))));
        Reservation released = reserved(ledger.reserve(request("alice", line("a", 1))));
        ledger.release(released.id());

        assertThat(ledger.markPaid(reserved.id())).isFalse();
        assertThat(ledger.markPaid(released.id())).isFalse();
        assertThat(ledger.markPaid(ReservationId.of(ACTIVITY, "nope"))).isFalse();

        assertThat(ledger.reservation(reserved.id()).orElseThrow().status()).isEqualTo(ReservationStatus.RESERVED);
        assertThat(ledger.reservation(released.id()).orElseThrow().status()).isEqualTo(ReservationStatus.CANCELLED);
    }

    @Test
    void givenReleasedByTheBuyerAtAMoment_thenThatMomentIsKeptAndOnlyForThatReservation() {
        ActivityLedger ledger = ledgerOf(3, item("a", 5));
        Reservation byBuyer = reserved(ledger.reserve(request("alice", line("a", 1))));
        Reservation withoutMoment = reserved(ledger.reserve(request("alice", line("a", 1))));
        Reservation ordered = ordered(ledger, "alice", line("a", 1));
        Instant at = OPEN.plusMillis(1234).plusNanos(5);

        assertThat(ledger.release(byBuyer.id(), at)).isTrue();
        ledger.release(withoutMoment.id());

        assertThat(ledger.cancelledAt(byBuyer.id())).contains(at);
        assertThat(ledger.cancelledAt(withoutMoment.id())).isEmpty();
        assertThat(ledger.release(ordered.id(), at)).isFalse();
        assertThat(ledger.cancelledAt(ordered.id())).isEmpty();
        assertThat(ledger.release(byBuyer.id(), at.plusSeconds(9))).isFalse();
        assertThat(ledger.cancelledAt(byBuyer.id())).contains(at);
        assertThat(ledger(ledger, "a")).isEqualTo(new StockLedger(5, 0, 1));
    }
}
