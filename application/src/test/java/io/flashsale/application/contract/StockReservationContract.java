package io.flashsale.application.contract;

import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BucketLimit;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome.Ended;
import io.flashsale.domain.reservation.ReservationOutcome.InsufficientStock;
import io.flashsale.domain.reservation.ReservationOutcome.LimitExceeded;
import io.flashsale.domain.reservation.ReservationOutcome.NotReady;
import io.flashsale.domain.reservation.ReservationOutcome.NotStarted;
import io.flashsale.domain.reservation.ReservationOutcome.RateLimited;
import io.flashsale.domain.reservation.ReservationOutcome.Replayed;
import io.flashsale.domain.reservation.ReservationOutcome.Reserved;
import io.flashsale.domain.reservation.ReservationOutcome.Settled;
import io.flashsale.domain.reservation.ReservationOutcome.SoldOut;
import io.flashsale.domain.reservation.ReservationOutcome.UnknownSku;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.stock.SkuStock;
import io.flashsale.domain.stock.StockLedger;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static io.flashsale.application.contract.ContractFixtures.ENDS_AT;
import static io.flashsale.application.contract.ContractFixtures.NOW;
import static io.flashsale.application.contract.ContractFixtures.STARTS_AT;
import static io.flashsale.application.contract.ContractFixtures.item;
import static io.flashsale.application.contract.ContractFixtures.itemWithLimit;
import static io.flashsale.application.contract.ContractFixtures.limit;
import static io.flashsale.application.contract.ContractFixtures.line;
import static io.flashsale.application.contract.ContractFixtures.newReservationId;
import static io.flashsale.application.contract.ContractFixtures.openSale;
import static io.flashsale.application.contract.ContractFixtures.randomActivityId;
import static io.flashsale.application.contract.ContractFixtures.segmentedItem;
import static io.flashsale.application.contract.ContractFixtures.sku;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The rules every hot store keeps on its hot path ({@link StockReservationPort}), its records
 * ({@link HeldReservationsPort}) and their moves ({@link ReservationTransitionsPort}), refereed against the reference
 * {@link io.flashsale.domain.stock.ActivityLedger}: the in-memory model and the Redis scripts both run it.
 * Each test works in an activity of its own, so a store may be shared between tests and test classes.
 */
public abstract class StockReservationContract<
        S extends StockReservationPort & HeldReservationsPort & ReservationTransitionsPort> {

    private static final PurchaseLimit GENEROUS = limit(1000);

    private final ActivityId activityId = randomActivityId();
    private S port;

    /** The store under test; called once per test, may return a shared instance. */
    protected abstract S store();

    /** The store of the running test. */
    protected final S port() {
        if (port == null) {
            port = store();
        }
        return port;
    }

    /** The running test's own activity. */
    protected final ActivityId activityId() {
        return activityId;
    }

    protected final Activity sale(PurchaseLimit perUserLimit, ActivityItem... items) {
        return openSale(activityId, perUserLimit, items);
    }

    protected final List<SkuStock> warmUp(PurchaseLimit perUserLimit, ActivityItem... items) {
        return port().warmUp(sale(perUserLimit, items));
    }

    protected final ReservationOutcome reserve(String buyerId, ReservationLine... lines) {
        return reserveAt(NOW, buyerId, lines);
    }

    protected final ReservationOutcome reserveAt(Instant at, String buyerId, ReservationLine... lines) {
        return port().reserve(ContractFixtures.request(activityId, buyerId, at, lines));
    }

    protected final ReservationOutcome reserveWithRequestId(String buyerId, String requestId, Instant at,
                                                            ReservationLine... lines) {
        return port().reserve(ContractFixtures.request(activityId, buyerId, requestId, at, lines));
    }

    protected final List<SkuStock> stockNow() {
        return port().stock(activityId).orElseThrow(() -> new AssertionError("activity " + activityId + " is not warmed up"));
    }

    protected final StockLedger ledger(String skuId) {
        return stockNow().stream()
                .filter(stock -> stock.skuId().equals(sku(skuId)))
                .findFirst()
                .map(SkuStock::ledger)
                .orElseThrow(() -> new AssertionError("no ledger for " + skuId));
    }

    protected final Map<SkuId, Long> holdingsOf(String buyerId) {
        return port().holdings(activityId, ContractFixtures.buyer(buyerId));
    }

    /** The reservation of an accepted attempt; fails the test with the outcome otherwise. */
    protected static Reservation reserved(ReservationOutcome outcome) {
        if (outcome instanceof Reserved(Reservation reservation)) {
            return reservation;
        }
        return fail("expected Reserved but was " + outcome);
    }

    protected static Reservation replayed(ReservationOutcome outcome) {
        if (outcome instanceof Replayed(Reservation reservation)) {
            return reservation;
        }
        return fail("expected Replayed but was " + outcome);
    }

    /** Equal in every field; instants at millisecond precision, as Redis keeps epoch millis. */
    protected static void assertSameReservation(Reservation actual, Reservation expected) {
        assertThat(actual.id()).isEqualTo(expected.id());
        assertThat(actual.activityId()).isEqualTo(expected.activityId());
        assertThat(actual.buyerId()).isEqualTo(expected.buyerId());
        assertThat(actual.requestId()).isEqualTo(expected.requestId());
        assertThat(actual.lines()).isEqualTo(expected.lines());
        assertThat(actual.status()).isEqualTo(expected.status());
        assertThat(actual.reservedAt().truncatedTo(ChronoUnit.MILLIS))
                .isEqualTo(expected.reservedAt().truncatedTo(ChronoUnit.MILLIS));
    }

    private static SkuStock stock(String skuId, long total, long reserved, long sold) {
        return new SkuStock(sku(skuId), new StockLedger(total, reserved, sold));
    }

    // ---- warm-up ----

    @Test
    void givenNoWarmUp_whenReserving_thenNotReadyAndNothingStored() {
        ReservationRequest request = ContractFixtures.request(activityId, "alice", NOW, line("a", 1));

        assertThat(port().reserve(request)).isEqualTo(new NotReady());
        assertThat(port().stock(activityId)).isEmpty();
        assertThat(port().findReservation(request.id())).isEmpty();
        assertThat(holdingsOf("alice")).isEmpty();
    }

    @Test
    void givenNoWarmUp_whenReservingOutsideTheWindow_thenStillNotReady() {
        assertThat(reserveAt(STARTS_AT.minusSeconds(1), "alice", line("a", 1))).isEqualTo(new NotReady());
        assertThat(reserveAt(ENDS_AT, "alice", line("a", 1))).isEqualTo(new NotReady());
    }

    @Test
    void whenWarmingUp_thenLedgersInItemOrderWithTotalEqualToStockAndNothingReservedOrSold() {
        List<SkuStock> warmed = warmUp(limit(1), item("zeta", 5), item("alpha", 0), item("mid", 1_000_000_000L));

        List<SkuStock> expected = List.of(stock("zeta", 5, 0, 0), stock("alpha", 0, 0, 0),
                stock("mid", 1_000_000_000L, 0, 0));
        assertThat(warmed).containsExactlyElementsOf(expected);
        assertThat(stockNow()).containsExactlyElementsOf(expected);
    }

    @Test
    void givenReservationsAndAnOrder_whenWarmingUpAgain_thenLedgersAreNotReset() {
        warmUp(GENEROUS, item("a", 10), item("b", 4));
        Reservation ordered = reserved(reserve("alice", line("a", 2)));
        port().confirm(ordered.id());
        reserved(reserve("bob", line("a", 3), line("b", 1)));

        List<SkuStock> again = warmUp(GENEROUS, item("a", 10), item("b", 4));

        List<SkuStock> expected = List.of(stock("a", 10, 3, 2), stock("b", 4, 1, 0));
        assertThat(again).containsExactlyElementsOf(expected);
        assertThat(stockNow()).containsExactlyElementsOf(expected);
        assertThat(holdingsOf("bob")).containsOnly(Map.entry(sku("a"), 3L), Map.entry(sku("b"), 1L));
    }

    @Test
    void givenWarmedUpSale_whenWarmingUpWithOtherStock_thenTheExistingLedgerStays() {
        warmUp(limit(1), item("a", 10));
        reserved(reserve("alice", line("a", 1)));

        warmUp(limit(1), item("a", 500));

        assertThat(stockNow()).containsExactly(stock("a", 10, 1, 0));
    }

    @Test
    void givenUnknownActivity_thenStockAndHoldingsAreEmptyAndNothingCanBeReleasedOrConfirmed() {
        var unknown = newReservationId(activityId);

        assertThat(port().stock(activityId)).isEmpty();
        assertThat(holdingsOf("alice")).isEmpty();
        assertThat(port().findReservation(unknown)).isEmpty();
        assertThat(port().release(unknown)).isFalse();
        assertThat(port().confirm(unknown)).isFalse();
    }

    // ---- the sale window [startsAt, endsAt) ----

    @Test
    void givenSaleNotStarted_whenReservingOneMillisecondBeforeStart_thenNotStartedWithStartsAtAndNothingDeducted() {
        warmUp(limit(1), item("a", 10));

        assertThat(reserveAt(STARTS_AT.minusMillis(1), "alice", line("a", 1))).isEqualTo(new NotStarted(STARTS_AT));
        assertThat(ledger("a")).isEqualTo(StockLedger.of(10));
        assertThat(holdingsOf("alice")).isEmpty();
    }

    @Test
    void whenReservingExactlyAtStart_thenReserved() {
        warmUp(limit(1), item("a", 10));

        reserved(reserveAt(STARTS_AT, "alice", line("a", 1)));
    }

    @Test
    void whenReservingOneMillisecondBeforeEnd_thenReserved() {
        warmUp(limit(1), item("a", 10));

        reserved(reserveAt(ENDS_AT.minusMillis(1), "alice", line("a", 1)));
    }

    @Test
    void whenReservingExactlyAtEnd_thenEndedWithEndsAtAndNothingDeducted() {
        warmUp(limit(1), item("a", 10));

        assertThat(reserveAt(ENDS_AT, "alice", line("a", 1))).isEqualTo(new Ended(ENDS_AT));
        assertThat(reserveAt(ENDS_AT.plus(Duration.ofDays(1)), "alice", line("a", 1))).isEqualTo(new Ended(ENDS_AT));
        assertThat(ledger("a")).isEqualTo(StockLedger.of(10));
        assertThat(holdingsOf("alice")).isEmpty();
    }

    @Test
    void givenUnknownSkuOutsideTheWindow_thenTheWindowIsReportedFirst() {
        warmUp(limit(1), item("a", 10));

        assertThat(reserveAt(STARTS_AT.minusSeconds(1), "alice", line("nope", 1))).isEqualTo(new NotStarted(STARTS_AT));
        assertThat(reserveAt(ENDS_AT, "alice", line("nope", 1))).isEqualTo(new Ended(ENDS_AT));
    }

    // ---- unknown SKUs ----

    @Test
    void givenKnownFirstLine_whenSecondLineIsUnknownSku_thenUnknownSkuAndNothingDeducted() {
        warmUp(limit(1), item("a", 10));

        assertThat(reserve("alice", line("a", 1), line("nope", 1))).isEqualTo(new UnknownSku(sku("nope")));
        assertThat(ledger("a")).isEqualTo(StockLedger.of(10));
        assertThat(holdingsOf("alice")).isEmpty();
    }

    @Test
    void givenFirstLineOverLimitAndSecondLineUnknown_thenUnknownSkuIsCheckedOverAllLinesFirst() {
        warmUp(limit(1), item("a", 10), item("b", 0));

        assertThat(reserve("alice", line("a", 5), line("b", 1), line("nope", 1))).isEqualTo(new UnknownSku(sku("nope")));
    }

    // ---- per-user limits ----

    @Test
    void givenLimitOfOne_whenSameBuyerReservesTwice_thenSecondIsLimitExceededWithLimitOneAndHeldOne() {
        warmUp(limit(1), item("a", 10));
        reserved(reserve("alice", line("a", 1)));

        assertThat(reserve("alice", line("a", 1))).isEqualTo(new LimitExceeded(sku("a"), 1, 1));
        assertThat(ledger("a")).isEqualTo(new StockLedger(10, 1, 0));
        assertThat(holdingsOf("alice")).containsOnly(Map.entry(sku("a"), 1L));
    }

    @Test
    void givenLimitOfOne_whenAnotherBuyerReserves_thenAccepted() {
        warmUp(limit(1), item("a", 10));
        reserved(reserve("alice", line("a", 1)));

        reserved(reserve("bob", line("a", 1)));
        assertThat(ledger("a")).isEqualTo(new StockLedger(10, 2, 0));
    }

    @Test
    void givenLimitOfFive_whenBuyerReservesTwoThenThree_thenBothAcceptedAndOneMoreIsLimitExceededHoldingFive() {
        warmUp(limit(5), item("a", 100));
        reserved(reserve("alice", line("a", 2)));
        reserved(reserve("alice", line("a", 3)));

        assertThat(reserve("alice", line("a", 1))).isEqualTo(new LimitExceeded(sku("a"), 5, 5));
        assertThat(holdingsOf("alice")).containsOnly(Map.entry(sku("a"), 5L));
        assertThat(ledger("a")).isEqualTo(new StockLedger(100, 5, 0));
    }

    @Test
    void givenLimitOfThreeAndTwoHeld_whenAskingForTwoMore_thenLimitExceededWithHeldTwo() {
        warmUp(limit(3), item("a", 100));
        reserved(reserve("alice", line("a", 2)));

        assertThat(reserve("alice", line("a", 2))).isEqualTo(new LimitExceeded(sku("a"), 3, 2));
        reserved(reserve("alice", line("a", 1)));
    }

    @Test
    void givenLimitOfFive_whenOneRequestAsksForSix_thenLimitExceededWithNothingHeld() {
        warmUp(limit(5), item("a", 100));

        assertThat(reserve("alice", line("a", 6))).isEqualTo(new LimitExceeded(sku("a"), 5, 0));
        assertThat(ledger("a")).isEqualTo(StockLedger.of(100));
    }

    @Test
    void givenItemLimitOverride_thenTheItemsOwnLimitAppliesAndOtherItemsUseTheActivitysLimit() {
        warmUp(limit(1), item("a", 100), itemWithLimit("b", 100, 3));

        reserved(reserve("alice", line("a", 1), line("b", 3)));

        assertThat(reserve("alice", line("b", 1))).isEqualTo(new LimitExceeded(sku("b"), 3, 3));
        assertThat(reserve("alice", line("a", 1))).isEqualTo(new LimitExceeded(sku("a"), 1, 1));
    }

    @Test
    void givenItemLimitOverrideBelowTheActivitysLimit_thenTheOverrideApplies() {
        warmUp(limit(5), item("a", 100), itemWithLimit("b", 100, 2));

        assertThat(reserve("alice", line("b", 3))).isEqualTo(new LimitExceeded(sku("b"), 2, 0));
        reserved(reserve("alice", line("a", 5), line("b", 2)));
    }

    @Test
    void givenLineBothOverLimitAndSoldOut_thenLimitExceededIsReported() {
        warmUp(limit(1), item("a", 1));
        reserved(reserve("alice", line("a", 1)));

        assertThat(reserve("alice", line("a", 1))).isEqualTo(new LimitExceeded(sku("a"), 1, 1));
        assertThat(reserve("bob", line("a", 1))).isEqualTo(new SoldOut(sku("a")));
    }

    // ---- stock ----

    @Test
    void givenStockOfThreeAllReserved_whenOneMoreRequested_thenSoldOut() {
        warmUp(limit(1), item("a", 3));
        reserved(reserve("alice", line("a", 1)));
        reserved(reserve("bob", line("a", 1)));
        reserved(reserve("carol", line("a", 1)));

        assertThat(reserve("dave", line("a", 1))).isEqualTo(new SoldOut(sku("a")));
        assertThat(ledger("a")).isEqualTo(new StockLedger(3, 3, 0));
        assertThat(holdingsOf("dave")).isEmpty();
    }

    @Test
    void givenStockOfZero_whenReserving_thenSoldOut() {
        warmUp(limit(1), item("a", 0));

        assertThat(reserve("alice", line("a", 1))).isEqualTo(new SoldOut(sku("a")));
        assertThat(ledger("a")).isEqualTo(StockLedger.of(0));
    }

    @Test
    void givenStockOfTen_whenElevenRequested_thenInsufficientStockOfTenAndNothingDeducted() {
        warmUp(GENEROUS, item("a", 10));

        assertThat(reserve("alice", line("a", 11))).isEqualTo(new InsufficientStock(sku("a"), 10));
        assertThat(ledger("a")).isEqualTo(StockLedger.of(10));
        assertThat(holdingsOf("alice")).isEmpty();
    }

    @Test
    void givenTwoOfTenLeft_whenThreeRequested_thenInsufficientStockOfTwo_andTwoStillFit() {
        warmUp(GENEROUS, item("a", 10));
        reserved(reserve("alice", line("a", 8)));

        assertThat(reserve("bob", line("a", 3))).isEqualTo(new InsufficientStock(sku("a"), 2));
        reserved(reserve("bob", line("a", 2)));
        assertThat(reserve("carol", line("a", 1))).isEqualTo(new SoldOut(sku("a")));
        assertThat(ledger("a")).isEqualTo(new StockLedger(10, 10, 0));
    }

    @Test
    void givenStockOfTen_whenTenRequestedAtOnce_thenReservedAndThenSoldOut() {
        warmUp(GENEROUS, item("a", 10));

        reserved(reserve("alice", line("a", 10)));

        assertThat(reserve("bob", line("a", 1))).isEqualTo(new SoldOut(sku("a")));
        assertThat(ledger("a").available()).isZero();
    }

    // ---- several lines: all or nothing, first failing line reported ----

    @Test
    void whenEveryLineFits_thenEveryLineIsDeductedAndHeld() {
        warmUp(GENEROUS, item("a", 10), item("b", 10), item("c", 10));

        Reservation reservation = reserved(reserve("alice", line("c", 3), line("a", 1), line("b", 2)));

        assertThat(reservation.lines()).containsExactly(line("c", 3), line("a", 1), line("b", 2));
        assertThat(stockNow()).containsExactly(stock("a", 10, 1, 0), stock("b", 10, 2, 0), stock("c", 10, 3, 0));
        assertThat(holdingsOf("alice"))
                .containsOnly(Map.entry(sku("a"), 1L), Map.entry(sku("b"), 2L), Map.entry(sku("c"), 3L));
    }

    @Test
    void givenSecondLineSoldOut_whenReservingTwoLines_thenSoldOutOnSecondAndFirstLineUntouched() {
        warmUp(GENEROUS, item("a", 10), item("b", 0));

        assertThat(reserve("alice", line("a", 4), line("b", 1))).isEqualTo(new SoldOut(sku("b")));
        assertThat(stockNow()).containsExactly(stock("a", 10, 0, 0), stock("b", 0, 0, 0));
        assertThat(holdingsOf("alice")).isEmpty();
    }

    @Test
    void givenSecondLineOverLimit_whenReservingTwoLines_thenLimitExceededOnSecondAndFirstLineUntouched() {
        warmUp(limit(2), item("a", 10), item("b", 10));
        reserved(reserve("alice", line("b", 2)));

        assertThat(reserve("alice", line("a", 2), line("b", 1))).isEqualTo(new LimitExceeded(sku("b"), 2, 2));
        assertThat(stockNow()).containsExactly(stock("a", 10, 0, 0), stock("b", 10, 2, 0));
        assertThat(holdingsOf("alice")).containsOnly(Map.entry(sku("b"), 2L));
    }

    @Test
    void givenSecondLineShort_whenReservingTwoLines_thenInsufficientStockOnSecondAndFirstLineUntouched() {
        warmUp(GENEROUS, item("a", 10), item("b", 3));

        assertThat(reserve("alice", line("a", 5), line("b", 4))).isEqualTo(new InsufficientStock(sku("b"), 3));
        assertThat(stockNow()).containsExactly(stock("a", 10, 0, 0), stock("b", 3, 0, 0));
    }

    @Test
    void givenSeveralFailingLines_thenTheFirstFailingLineInRequestOrderIsReported() {
        warmUp(limit(2), item("a", 10), item("short", 1), item("capped", 10));
        reserved(reserve("alice", line("capped", 2)));

        assertThat(reserve("alice", line("a", 1), line("short", 2), line("capped", 1)))
                .isEqualTo(new InsufficientStock(sku("short"), 1));
        assertThat(reserve("alice", line("a", 1), line("capped", 1), line("short", 2)))
                .isEqualTo(new LimitExceeded(sku("capped"), 2, 2));
        assertThat(stockNow()).containsExactly(stock("a", 10, 0, 0), stock("short", 1, 0, 0), stock("capped", 10, 2, 0));
    }

    // ---- replay by (buyer, requestId) ----

    @Test
    void givenAcceptedRequest_whenSameBuyerSendsSameRequestIdAgain_thenReplayedWithTheSameReservationAndNothingDeductedTwice() {
        warmUp(limit(5), item("a", 10));
        Reservation first = reserved(reserveWithRequestId("alice", "key-1", NOW, line("a", 2)));

        Reservation again = replayed(reserveWithRequestId("alice", "key-1", NOW.plusSeconds(1), line("a", 2)));

        assertSameReservation(again, first);
        assertThat(ledger("a")).isEqualTo(new StockLedger(10, 2, 0));
        assertThat(holdingsOf("alice")).containsOnly(Map.entry(sku("a"), 2L));
    }

    @Test
    void givenAcceptedRequest_whenReplayedOutsideTheWindow_thenStillReplayed() {
        warmUp(limit(1), item("a", 10));
        Reservation first = reserved(reserveWithRequestId("alice", "key-1", NOW, line("a", 1)));

        assertSameReservation(replayed(reserveWithRequestId("alice", "key-1", ENDS_AT, line("a", 1))), first);
        assertSameReservation(replayed(reserveWithRequestId("alice", "key-1", ENDS_AT.plus(Duration.ofDays(3)),
                line("a", 1))), first);
        assertSameReservation(replayed(reserveWithRequestId("alice", "key-1", STARTS_AT.minusSeconds(1),
                line("a", 1))), first);
        assertThat(ledger("a")).isEqualTo(new StockLedger(10, 1, 0));
    }

    @Test
    void givenAcceptedRequestTookTheLastUnit_whenReplayed_thenReplayedNotSoldOutNorOverLimit() {
        warmUp(limit(1), item("a", 1));
        Reservation first = reserved(reserveWithRequestId("alice", "key-1", NOW, line("a", 1)));

        assertSameReservation(replayed(reserveWithRequestId("alice", "key-1", NOW, line("a", 1))), first);
        assertThat(ledger("a")).isEqualTo(new StockLedger(1, 1, 0));
    }

    @Test
    void givenAcceptedRequestAndAnExhaustedBucket_whenTheBuyerRetriesTheRequest_thenReplayedTakingNoToken() {
        warmUp(limit(5), item("a", 10));
        BucketLimit twoAnHour = new BucketLimit(2, 2, Duration.ofHours(1));
        Reservation first = reserved(reserveBehind(twoAnHour, "key-1"));

        assertSameReservation(replayed(reserveBehind(twoAnHour, "key-1")), first);
        reserved(reserveBehind(twoAnHour, "key-2"));
        assertThat(reserveBehind(twoAnHour, "key-3")).isInstanceOf(RateLimited.class);
        assertSameReservation(replayed(reserveBehind(twoAnHour, "key-1")), first);

        assertThat(ledger("a")).as("two reservations, each took one of the two tokens").isEqualTo(new StockLedger(10, 2, 0));
    }

    private ReservationOutcome reserveBehind(BucketLimit bucket, String requestId) {
        return port().reserve(ContractFixtures.request(activityId, "alice", requestId, NOW, line("a", 1)).behind(bucket));
    }

    @Test
    void givenAcceptedRequest_whenAnotherBuyerUsesTheSameRequestId_thenTheirReservationIsIndependent() {
        warmUp(limit(1), item("a", 10));
        Reservation alices = reserved(reserveWithRequestId("alice", "key-1", NOW, line("a", 1)));

        Reservation bobs = reserved(reserveWithRequestId("bob", "key-1", NOW, line("a", 1)));

        assertThat(bobs.id()).isNotEqualTo(alices.id());
        assertThat(bobs.buyerId()).isEqualTo(ContractFixtures.buyer("bob"));
        assertThat(ledger("a")).isEqualTo(new StockLedger(10, 2, 0));
        assertSameReservation(port().findReservation(alices.id()).orElseThrow(), alices);
    }

    @Test
    void givenReleasedReservation_whenSameRequestIdAgain_thenReplayedAsCancelledAndNothingDeducted() {
        warmUp(limit(1), item("a", 10));
        Reservation first = reserved(reserveWithRequestId("alice", "key-1", NOW, line("a", 1)));
        port().release(first.id());

        Reservation again = replayed(reserveWithRequestId("alice", "key-1", NOW, line("a", 1)));

        assertThat(again.id()).isEqualTo(first.id());
        assertThat(again.status()).isEqualTo(ReservationStatus.CANCELLED);
        assertThat(ledger("a")).isEqualTo(StockLedger.of(10));
        assertThat(holdingsOf("alice")).isEmpty();
    }

    @Test
    void givenRefusedRequest_whenSameRequestIdIsRetriedAfterStockCameBack_thenReservedBecauseRefusalsAreNotRemembered() {
        warmUp(limit(1), item("a", 1));
        Reservation alices = reserved(reserve("alice", line("a", 1)));
        ReservationRequest refused = ContractFixtures.request(activityId, "bob", "key-1", NOW, line("a", 1));
        assertThat(port().reserve(refused)).isEqualTo(new SoldOut(sku("a")));
        port().release(alices.id());

        reserved(reserveWithRequestId("bob", "key-1", NOW, line("a", 1)));
        assertThat(port().findReservation(refused.id())).isEmpty();
    }

    // ---- release: RESERVED -> CANCELLED ----

    @Test
    void whenReleasing_thenUnitsAndAllowanceComeBack() {
        warmUp(limit(1), item("a", 1), item("b", 5));
        Reservation reservation = reserved(reserve("alice", line("a", 1), line("b", 1)));

        assertThat(port().release(reservation.id())).isTrue();

        assertThat(stockNow()).containsExactly(stock("a", 1, 0, 0), stock("b", 5, 0, 0));
        assertThat(holdingsOf("alice")).isEmpty();
        reserved(reserve("alice", line("a", 1), line("b", 1)));
    }

    @Test
    void givenReleased_whenReleasingAgain_thenFalseAndNothingChanges() {
        warmUp(limit(3), item("a", 10));
        Reservation released = reserved(reserve("alice", line("a", 2)));
        port().release(released.id());
        reserved(reserve("alice", line("a", 3)));

        assertThat(port().release(released.id())).isFalse();

        assertThat(ledger("a")).isEqualTo(new StockLedger(10, 3, 0));
        assertThat(holdingsOf("alice")).containsOnly(Map.entry(sku("a"), 3L));
    }

    @Test
    void givenConfirmed_whenReleasing_thenFalseAndUnitsStaySold() {
        warmUp(limit(1), item("a", 10));
        Reservation ordered = reserved(reserve("alice", line("a", 1)));
        port().confirm(ordered.id());

        assertThat(port().release(ordered.id())).isFalse();

        assertThat(ledger("a")).isEqualTo(new StockLedger(10, 0, 1));
        assertThat(holdingsOf("alice")).containsOnly(Map.entry(sku("a"), 1L));
        assertThat(port().findReservation(ordered.id())).isEmpty();
    }

    @Test
    void whenReleasingAReservationThatDoesNotExist_thenFalseAndNothingChanges() {
        warmUp(limit(1), item("a", 10));
        reserved(reserve("alice", line("a", 1)));

        assertThat(port().release(newReservationId(activityId))).isFalse();
        assertThat(ledger("a")).isEqualTo(new StockLedger(10, 1, 0));
    }

    // ---- confirm: RESERVED -> ORDERED ----

    @Test
    void whenConfirming_thenReservedUnitsBecomeSoldAndStillCountAgainstTheLimit() {
        warmUp(limit(2), item("a", 10), item("b", 10));
        Reservation reservation = reserved(reserve("alice", line("a", 2), line("b", 1)));

        assertThat(port().confirm(reservation.id())).isTrue();

        assertThat(stockNow()).containsExactly(stock("a", 10, 0, 2), stock("b", 10, 0, 1));
        assertThat(holdingsOf("alice")).containsOnly(Map.entry(sku("a"), 2L), Map.entry(sku("b"), 1L));
        assertThat(reserve("alice", line("a", 1))).isEqualTo(new LimitExceeded(sku("a"), 2, 2));
    }

    @Test
    void givenConfirmed_whenConfirmingAgain_thenFalseAndNothingMovesTwice() {
        warmUp(limit(5), item("a", 10));
        Reservation first = reserved(reserve("alice", line("a", 2)));
        reserved(reserve("alice", line("a", 3)));
        port().confirm(first.id());

        assertThat(port().confirm(first.id())).isFalse();

        assertThat(ledger("a")).isEqualTo(new StockLedger(10, 3, 2));
    }

    @Test
    void givenReleased_whenConfirming_thenFalseAndNothingIsSold() {
        warmUp(limit(1), item("a", 10));
        Reservation released = reserved(reserve("alice", line("a", 1)));
        port().release(released.id());

        assertThat(port().confirm(released.id())).isFalse();

        assertThat(ledger("a")).isEqualTo(StockLedger.of(10));
        assertThat(port().findReservation(released.id()).orElseThrow().status()).isEqualTo(ReservationStatus.CANCELLED);
    }

    @Test
    void whenConfirmingAReservationThatDoesNotExist_thenFalseAndNothingChanges() {
        warmUp(limit(1), item("a", 10));
        reserved(reserve("alice", line("a", 1)));

        assertThat(port().confirm(newReservationId(activityId))).isFalse();
        assertThat(ledger("a")).isEqualTo(new StockLedger(10, 1, 0));
    }

    // ---- fail: RESERVED -> FAILED, nothing given back ----

    @Test
    void whenFailing_thenTheReservationIsFailedAndStockAndHoldingsStayAsTheyWere() {
        warmUp(limit(2), item("a", 3), segmentedItem("b", 5, 3));
        Reservation reservation = reserved(reserve("alice", line("a", 2), line("b", 1)));
        reserved(reserve("bob", line("a", 1)));

        assertThat(port().fail(reservation.id())).isTrue();

        assertThat(stockNow()).containsExactly(stock("a", 3, 3, 0), stock("b", 5, 1, 0));
        assertThat(holdingsOf("alice")).containsOnly(Map.entry(sku("a"), 2L), Map.entry(sku("b"), 1L));
        assertSameReservation(port().findReservation(reservation.id()).orElseThrow(),
                reservation.transitionTo(ReservationStatus.FAILED));
        assertThat(reserve("carol", line("a", 1))).isEqualTo(new SoldOut(sku("a")));
        assertThat(reserve("alice", line("a", 1))).isEqualTo(new LimitExceeded(sku("a"), 2, 2));
    }

    @Test
    void givenFailed_whenFailingAgain_thenFalseAndNothingChanges() {
        warmUp(limit(2), item("a", 10));
        Reservation reservation = reserved(reserve("alice", line("a", 2)));
        port().fail(reservation.id());

        assertThat(port().fail(reservation.id())).isFalse();

        assertThat(ledger("a")).isEqualTo(new StockLedger(10, 2, 0));
        assertThat(holdingsOf("alice")).containsOnly(Map.entry(sku("a"), 2L));
        assertThat(port().findReservation(reservation.id()).orElseThrow().status()).isEqualTo(ReservationStatus.FAILED);
    }

    @Test
    void givenConfirmedOrReleased_whenFailing_thenFalseAndTheStatusAndStockStay() {
        warmUp(limit(2), item("a", 10));
        Reservation ordered = reserved(reserve("alice", line("a", 1)));
        Reservation cancelled = reserved(reserve("alice", line("a", 1)));
        port().confirm(ordered.id());
        port().release(cancelled.id());

        assertThat(port().fail(ordered.id())).isFalse();
        assertThat(port().fail(cancelled.id())).isFalse();

        assertThat(ledger("a")).isEqualTo(new StockLedger(10, 0, 1));
        assertThat(holdingsOf("alice")).containsOnly(Map.entry(sku("a"), 1L));
        assertThat(port().findReservation(ordered.id())).isEmpty();
        assertThat(port().findReservation(cancelled.id()).orElseThrow().status()).isEqualTo(ReservationStatus.CANCELLED);
    }

    @Test
    void givenFailed_whenConfirmingOrReleasing_thenFalseAndNothingMoves() {
        warmUp(limit(1), item("a", 10));
        Reservation failed = reserved(reserve("alice", line("a", 1)));
        port().fail(failed.id());

        assertThat(port().confirm(failed.id())).isFalse();
        assertThat(port().release(failed.id())).isFalse();

        assertThat(ledger("a")).isEqualTo(new StockLedger(10, 1, 0));
        assertThat(holdingsOf("alice")).containsOnly(Map.entry(sku("a"), 1L));
        assertThat(port().findReservation(failed.id()).orElseThrow().status()).isEqualTo(ReservationStatus.FAILED);
    }

    @Test
    void givenFailed_whenSameRequestIdAgain_thenReplayedAsFailedAndNothingDeducted() {
        warmUp(limit(1), item("a", 10));
        Reservation first = reserved(reserveWithRequestId("alice", "key-1", NOW, line("a", 1)));
        port().fail(first.id());

        Reservation again = replayed(reserveWithRequestId("alice", "key-1", NOW, line("a", 1)));

        assertSameReservation(again, first.transitionTo(ReservationStatus.FAILED));
        assertThat(ledger("a")).isEqualTo(new StockLedger(10, 1, 0));
    }

    @Test
    void whenFailingAReservationThatDoesNotExist_thenFalseAndNothingChanges() {
        warmUp(limit(1), item("a", 10));
        reserved(reserve("alice", line("a", 1)));

        assertThat(port().fail(newReservationId(activityId))).isFalse();
        assertThat(port().fail(newReservationId(randomActivityId()))).isFalse();
        assertThat(ledger("a")).isEqualTo(new StockLedger(10, 1, 0));
    }

    // ---- cancellation by the buyer: release with its moment ----

    @Test
    void givenReserved_whenReleasedByTheBuyerAtAMoment_thenUnitsComeBackAndTheMomentIsKeptExactly() {
        warmUp(limit(1), item("a", 3));
        Reservation reservation = reserved(reserve("alice", line("a", 1)));
        Instant at = NOW.plusMillis(1234).plusNanos(567);

        assertThat(port().release(reservation.id(), at)).isTrue();

        assertThat(ledger("a")).isEqualTo(StockLedger.of(3));
        assertThat(holdingsOf("alice")).isEmpty();
        assertThat(port().cancelledAt(reservation.id())).contains(at);
        assertThat(port().findReservation(reservation.id()).orElseThrow().status()).isEqualTo(ReservationStatus.CANCELLED);
    }

    @Test
    void givenNotReserved_whenReleasedByTheBuyer_thenFalseAndNoMomentIsRecorded() {
        warmUp(limit(3), item("a", 10));
        Reservation ordered = reserved(reserve("alice", line("a", 1)));
        Reservation released = reserved(reserve("alice", line("a", 1)));
        port().confirm(ordered.id());
        port().release(released.id());

        assertThat(port().release(ordered.id(), NOW)).isFalse();
        assertThat(port().release(released.id(), NOW)).isFalse();
        assertThat(port().release(newReservationId(activityId), NOW)).isFalse();

        assertThat(port().cancelledAt(ordered.id())).isEmpty();
        assertThat(port().cancelledAt(released.id())).isEmpty();
        assertThat(ledger("a")).isEqualTo(new StockLedger(10, 0, 1));
    }

    @Test
    void givenReleasedByTheBuyer_whenReleasedAgainLater_thenTheFirstMomentStays() {
        warmUp(limit(1), item("a", 3));
        Reservation reservation = reserved(reserve("alice", line("a", 1)));
        port().release(reservation.id(), NOW);

        assertThat(port().release(reservation.id(), NOW.plusSeconds(5))).isFalse();

        assertThat(port().cancelledAt(reservation.id())).contains(NOW);
        assertThat(port().cancelledAt(newReservationId(randomActivityId()))).isEmpty();
    }

    // ---- restore: ORDERED -> CANCELLED | EXPIRED gives the units back ----

    private Reservation ordered(String buyerId, ReservationLine... lines) {
        Reservation reservation = reserved(reserve(buyerId, lines));
        assertThat(port().confirm(reservation.id())).isTrue();
        return reservation;
    }

    /** The restore of an order closed as {@code finalStatus}, with the buyer, request and lines the database holds. */
    private Optional<ReservationStatus> restore(Reservation order, ReservationStatus finalStatus) {
        return port().restore(PendingRestore.of(order, finalStatus));
    }

    private boolean restoredNow(Reservation order, ReservationStatus finalStatus) {
        return restore(order, finalStatus).equals(Optional.of(ReservationStatus.ORDERED));
    }

    @Test
    void givenOrdered_whenRestoredAsCancelled_thenSoldUnitsAreAvailableAgainAndTheAllowanceIsBack() {
        warmUp(limit(2), item("a", 5), segmentedItem("b", 6, 3));
        Reservation reservation = ordered("alice", line("a", 2), line("b", 1));
        ordered("bob", line("a", 1));

        assertThat(restore(reservation, ReservationStatus.CANCELLED)).contains(ReservationStatus.ORDERED);

        assertThat(stockNow()).containsExactly(stock("a", 5, 0, 1), stock("b", 6, 0, 0));
        assertThat(holdingsOf("alice")).isEmpty();
        assertThat(holdingsOf("bob")).containsOnly(Map.entry(sku("a"), 1L));
        assertThat(port().findReservation(reservation.id())).as("a restored order keeps no record").isEmpty();
        assertThat(port().cancelledAt(reservation.id())).isEmpty();
        reserved(reserve("alice", line("a", 2), line("b", 2)));
    }

    @Test
    void givenOrdered_whenRestoredAsExpired_thenTheUnitsSellAgain() {
        warmUp(limit(1), item("a", 1));
        Reservation reservation = ordered("alice", line("a", 1));
        assertThat(reserve("bob", line("a", 1))).isEqualTo(new SoldOut(sku("a")));

        assertThat(restoredNow(reservation, ReservationStatus.EXPIRED)).isTrue();

        assertThat(port().findReservation(reservation.id())).isEmpty();
        reserved(reserve("bob", line("a", 1)));
        assertThat(ledger("a")).isEqualTo(new StockLedger(1, 1, 0));
    }

    @Test
    void givenRestored_whenRestoredAgainEitherWay_thenItsFinalStatusIsFoundAndNothingComesBackTwice() {
        warmUp(limit(3), item("a", 5));
        Reservation reservation = ordered("alice", line("a", 2));
        ordered("alice", line("a", 1));
        restore(reservation, ReservationStatus.EXPIRED);

        assertThat(restore(reservation, ReservationStatus.EXPIRED)).contains(ReservationStatus.EXPIRED);
        assertThat(restore(reservation, ReservationStatus.CANCELLED)).contains(ReservationStatus.EXPIRED);

        assertThat(ledger("a")).isEqualTo(new StockLedger(5, 0, 1));
        assertThat(holdingsOf("alice")).containsOnly(Map.entry(sku("a"), 1L));
    }

    @Test
    void givenOrdered_whenRestoredWithTheOrdersLines_thenExactlyThoseLinesComeBackOnce() {
        warmUp(limit(5), item("a", 10), item("b", 10));
        Reservation reservation = ordered("alice", line("a", 3), line("b", 2));
        ordered("alice", line("a", 1));

        assertThat(restoredNow(reservation, ReservationStatus.CANCELLED)).isTrue();
        assertThat(restoredNow(reservation, ReservationStatus.CANCELLED)).isFalse();

        assertThat(stockNow()).containsExactly(stock("a", 10, 0, 1), stock("b", 10, 0, 0));
        assertThat(holdingsOf("alice")).containsOnly(Map.entry(sku("a"), 1L));
    }

    @Test
    void givenReservedFailedReleasedPaidOrUnknown_whenRestored_thenNothingMoves() {
        warmUp(limit(5), item("a", 10));
        Reservation reservedOnly = reserved(reserve("alice", line("a", 1)));
        Reservation failed = reserved(reserve("alice", line("a", 1)));
        Reservation released = reserved(reserve("alice", line("a", 1)));
        port().fail(failed.id());
        port().release(released.id());
        Reservation unknown = new Reservation(newReservationId(activityId), activityId, new BuyerId("alice"),
                new RequestId("never-sent"), List.of(line("a", 1)), ReservationStatus.ORDERED, NOW);
        ActivityId elsewhere = randomActivityId();
        Reservation unknownSale = new Reservation(newReservationId(elsewhere), elsewhere, new BuyerId("alice"),
                new RequestId("never-sent"), List.of(line("a", 1)), ReservationStatus.ORDERED, NOW);
        // The request entry names another reservation: this id was never held under it.
        Reservation otherId = new Reservation(newReservationId(activityId), activityId, reservedOnly.buyerId(),
                reservedOnly.requestId(), List.of(line("a", 1)), ReservationStatus.ORDERED, NOW);

        for (ReservationStatus finalStatus : List.of(ReservationStatus.CANCELLED, ReservationStatus.EXPIRED)) {
            assertThat(restore(reservedOnly, finalStatus)).contains(ReservationStatus.RESERVED);
            assertThat(restore(failed, finalStatus)).contains(ReservationStatus.FAILED);
            assertThat(restore(released, finalStatus)).contains(ReservationStatus.CANCELLED);
            assertThat(restore(unknown, finalStatus)).isEmpty();
            assertThat(restore(unknownSale, finalStatus)).isEmpty();
            assertThat(restore(otherId, finalStatus)).isEmpty();
        }

        assertThat(ledger("a")).isEqualTo(new StockLedger(10, 2, 0));
        assertThat(holdingsOf("alice")).containsOnly(Map.entry(sku("a"), 2L));
        assertThat(port().findReservation(reservedOnly.id()).orElseThrow().status()).isEqualTo(ReservationStatus.RESERVED);
        assertThat(port().findReservation(failed.id()).orElseThrow().status()).isEqualTo(ReservationStatus.FAILED);
    }

    @Test
    void givenTenSoldToTenBuyers_whenThreeAreCancelledAndTwoExpire_thenFiveNewBuyersSucceedAndTheSixthIsRefused() {
        warmUp(limit(1), segmentedItem("a", 10, 4));
        List<Reservation> sold = new ArrayList<>();
        for (int buyer = 0; buyer < 10; buyer++) {
            sold.add(ordered("first-" + buyer, line("a", 1)));
        }
        assertThat(reserve("late", line("a", 1))).isEqualTo(new SoldOut(sku("a")));

        for (int i = 0; i < 3; i++) {
            assertThat(restoredNow(sold.get(i), ReservationStatus.CANCELLED)).isTrue();
        }
        for (int i = 3; i < 5; i++) {
            assertThat(restoredNow(sold.get(i), ReservationStatus.EXPIRED)).isTrue();
        }

        for (int buyer = 0; buyer < 5; buyer++) {
            reserved(reserve("second-" + buyer, line("a", 1)));
        }
        assertThat(reserve("second-5", line("a", 1))).isEqualTo(new SoldOut(sku("a")));
        assertThat(stockNow()).containsExactly(stock("a", 10, 5, 5));
        assertThat(holdingsOf("first-0")).isEmpty();
        assertThat(holdingsOf("first-9")).containsOnly(Map.entry(sku("a"), 1L));
    }

    @Test
    void givenOneOrder_whenManyThreadsRestoreItAtOnce_thenExactlyOneRestoresAndTheUnitsComeBackOnce() throws Exception {
        warmUp(limit(2), segmentedItem("a", 4, 2));
        Reservation reservation = ordered("alice", line("a", 2));
        ordered("bob", line("a", 1));
        List<Callable<Boolean>> attempts = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            ReservationStatus finalStatus = i % 2 == 0 ? ReservationStatus.CANCELLED : ReservationStatus.EXPIRED;
            attempts.add(() -> restoredNow(reservation, finalStatus));
        }

        List<Boolean> answers = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            for (Future<Boolean> answer : pool.invokeAll(attempts)) {
                answers.add(answer.get());
            }
        }

        assertThat(answers).containsOnlyOnce(true);
        assertThat(stockNow()).containsExactly(stock("a", 4, 0, 1));
        assertThat(holdingsOf("alice")).isEmpty();
    }

    // ---- a settled reservation leaves its record (ADR 71) ----

    @Test
    void givenConfirmed_thenTheRecordIsGoneAndAKeyedRetryIsAnsweredSettledWithNothingDeducted() {
        warmUp(limit(2), item("a", 5));
        Reservation first = reserved(reserveWithRequestId("alice", "key-1", NOW, line("a", 1)));
        port().confirm(first.id());

        assertThat(port().findReservation(first.id())).isEmpty();
        assertThat(reserveWithRequestId("alice", "key-1", NOW.plusSeconds(1), line("a", 1)))
                .isEqualTo(new Settled(first.id()));
        assertThat(ledger("a")).isEqualTo(new StockLedger(5, 0, 1));
        assertThat(holdingsOf("alice")).containsOnly(Map.entry(sku("a"), 1L));
    }

    @Test
    void givenAPaidOrExpiredOrder_whenTheSameRequestIdComesBack_thenSettledAndNothingDeducted() {
        warmUp(limit(2), item("a", 5));
        Reservation paid = reserved(reserveWithRequestId("alice", "pay-me", NOW, line("a", 1)));
        Reservation expired = reserved(reserveWithRequestId("alice", "let-go", NOW, line("a", 1)));
        port().confirm(paid.id());
        port().confirm(expired.id());
        assertThat(port().markPaid(paid.id())).as("nothing left to mark").isFalse();
        restore(expired, ReservationStatus.EXPIRED);

        assertThat(reserveWithRequestId("alice", "pay-me", NOW, line("a", 1))).isEqualTo(new Settled(paid.id()));
        assertThat(reserveWithRequestId("alice", "let-go", NOW, line("a", 1))).isEqualTo(new Settled(expired.id()));
        assertThat(ledger("a")).isEqualTo(new StockLedger(5, 0, 1));
    }

    // ---- markPaid: ORDERED -> PAID, nothing moves ----

    @Test
    void givenOrdered_whenMarkedPaid_thenNothingToMarkAndTheUnitsStaySoldAndHeld() {
        warmUp(limit(1), item("a", 3));
        Reservation reservation = ordered("alice", line("a", 1));

        assertThat(port().markPaid(reservation.id())).isFalse();

        assertThat(ledger("a")).isEqualTo(new StockLedger(3, 0, 1));
        assertThat(holdingsOf("alice")).containsOnly(Map.entry(sku("a"), 1L));
        assertThat(port().findReservation(reservation.id())).isEmpty();
        assertThat(reserve("alice", line("a", 1))).isEqualTo(new LimitExceeded(sku("a"), 1, 1));
    }

    @Test
    void givenNotOrdered_whenMarkedPaid_thenFalseAndTheStatusStays() {
        warmUp(limit(3), item("a", 5));
        Reservation reservedOnly = reserved(reserve("alice", line("a", 1)));
        Reservation released = reserved(reserve("alice", line("a", 1)));
        Reservation expired = ordered("alice", line("a", 1));
        port().release(released.id());
        restore(expired, ReservationStatus.EXPIRED);

        assertThat(port().markPaid(reservedOnly.id())).isFalse();
        assertThat(port().markPaid(released.id())).isFalse();
        assertThat(port().markPaid(expired.id())).isFalse();
        assertThat(port().markPaid(newReservationId(activityId))).isFalse();

        assertThat(port().findReservation(reservedOnly.id()).orElseThrow().status()).isEqualTo(ReservationStatus.RESERVED);
        assertThat(port().findReservation(released.id()).orElseThrow().status()).isEqualTo(ReservationStatus.CANCELLED);
        assertThat(port().findReservation(expired.id())).isEmpty();
        assertThat(ledger("a")).isEqualTo(new StockLedger(5, 1, 0));
    }

    // ---- findReservation ----

    @Test
    void givenAcceptedRequest_thenTheReservationIsFoundWithBuyerRequestIdLinesAndReservedAtToTheMillisecond() {
        warmUp(limit(2), item("a", 10), item("b", 10));
        Instant at = NOW.plusNanos(123_456_789);
        ReservationRequest request = ContractFixtures.request(activityId, "alice", "key-7", at, line("b", 2), line("a", 1));

        Reservation accepted = reserved(port().reserve(request));
        Reservation found = port().findReservation(request.id()).orElseThrow();

        Reservation expected = request.toReservation();
        assertSameReservation(accepted, expected);
        assertSameReservation(found, expected);
        assertThat(found.reservedAt().truncatedTo(ChronoUnit.MILLIS)).isEqualTo(NOW.plusMillis(123));
    }

    @Test
    void findReservation_reflectsReservedAndCancelledAndFindsNoRecordOfAnOrder() {
        warmUp(limit(3), item("a", 10));
        Reservation toOrder = reserved(reserve("alice", line("a", 1)));
        Reservation toCancel = reserved(reserve("alice", line("a", 1)));
        Reservation kept = reserved(reserve("alice", line("a", 1)));

        port().confirm(toOrder.id());
        port().release(toCancel.id());

        assertThat(port().findReservation(toOrder.id())).isEmpty();
        assertThat(port().findReservation(toCancel.id()).orElseThrow().status()).isEqualTo(ReservationStatus.CANCELLED);
        assertThat(port().findReservation(kept.id()).orElseThrow().status()).isEqualTo(ReservationStatus.RESERVED);
        assertSameReservation(port().findReservation(kept.id()).orElseThrow(), kept);
    }

    @Test
    void givenNoSuchReservationOrARefusedAttempt_thenNothingIsFound() {
        warmUp(limit(1), item("a", 0));
        ReservationRequest refused = ContractFixtures.request(activityId, "alice", NOW, line("a", 1));
        assertThat(port().reserve(refused)).isEqualTo(new SoldOut(sku("a")));

        assertThat(port().findReservation(refused.id())).isEmpty();
        assertThat(port().findReservation(newReservationId(activityId))).isEmpty();
    }

    // ---- holdings ----

    @Test
    void holdingsCountEachSkuAndOmitSkusGivenBack() {
        warmUp(limit(5), item("a", 10), item("b", 10), item("c", 10));
        reserved(reserve("alice", line("a", 2)));
        Reservation b = reserved(reserve("alice", line("b", 1)));
        reserved(reserve("alice", line("a", 1)));
        reserved(reserve("bob", line("c", 4)));

        port().release(b.id());

        assertThat(holdingsOf("alice")).containsOnly(Map.entry(sku("a"), 3L));
        assertThat(holdingsOf("bob")).containsOnly(Map.entry(sku("c"), 4L));
        assertThat(holdingsOf("carol")).isEmpty();
    }

    // ---- segmented SKUs behave exactly like unsegmented ones ----

    @Test
    void givenTenUnitsInFourSegments_whenWarmingUp_thenFiguresAreSums() {
        assertThat(warmUp(GENEROUS, segmentedItem("a", 10, 4), segmentedItem("b", 3, 16)))
                .containsExactly(stock("a", 10, 0, 0), stock("b", 3, 0, 0));
    }

    @Test
    void givenTenUnitsInFourSegments_whenOneRequestTakesAllTenWithLimitTen_thenReservedThenSoldOut() {
        warmUp(limit(10), segmentedItem("a", 10, 4));

        reserved(reserve("alice", line("a", 10)));

        assertThat(reserve("bob", line("a", 1))).isEqualTo(new SoldOut(sku("a")));
        assertThat(stockNow()).containsExactly(stock("a", 10, 10, 0));
    }

    @Test
    void givenTenUnitsInFourSegments_whenTenBuyersTakeOneEach_thenAllReservedThenSoldOut() {
        warmUp(limit(1), segmentedItem("a", 10, 4));

        for (int buyer = 0; buyer < 10; buyer++) {
            reserved(reserve("buyer-" + buyer, line("a", 1)));
        }

        assertThat(reserve("late", line("a", 1))).isEqualTo(new SoldOut(sku("a")));
        assertThat(stockNow()).containsExactly(stock("a", 10, 10, 0));
    }

    @Test
    void givenTenUnitsInFourSegmentsWithSevenTaken_whenFourRequested_thenInsufficientStockOfTheSummedThree() {
        warmUp(GENEROUS, segmentedItem("a", 10, 4));
        reserved(reserve("alice", line("a", 3)));
        reserved(reserve("bob", line("a", 4)));

        assertThat(reserve("carol", line("a", 4))).isEqualTo(new InsufficientStock(sku("a"), 3));
        reserved(reserve("carol", line("a", 3)));
        assertThat(reserve("dave", line("a", 1))).isEqualTo(new SoldOut(sku("a")));
    }

    @Test
    void givenThreeUnitsInSixteenSegments_whenFourBuyersTakeOneEach_thenThreeReservedAndTheFourthSoldOut() {
        warmUp(limit(1), segmentedItem("a", 3, 16));

        reserved(reserve("alice", line("a", 1)));
        reserved(reserve("bob", line("a", 1)));
        reserved(reserve("carol", line("a", 1)));

        assertThat(reserve("dave", line("a", 1))).isEqualTo(new SoldOut(sku("a")));
    }

    @Test
    void givenSegmentedSku_whenConfirmingAndReleasing_thenFiguresAreSumsAndReleasedUnitsSellAgain() {
        warmUp(GENEROUS, segmentedItem("a", 10, 4), segmentedItem("b", 5, 2));
        Reservation ordered = reserved(reserve("alice", line("a", 4), line("b", 1)));
        Reservation cancelled = reserved(reserve("bob", line("a", 5), line("b", 4)));

        port().confirm(ordered.id());
        port().release(cancelled.id());

        assertThat(stockNow()).containsExactly(stock("a", 10, 0, 4), stock("b", 5, 0, 1));
        reserved(reserve("carol", line("a", 6), line("b", 4)));
        assertThat(reserve("dave", line("a", 1))).isEqualTo(new SoldOut(sku("a")));
        assertThat(stockNow()).containsExactly(stock("a", 10, 6, 4), stock("b", 5, 4, 1));
    }

    @Test
    void givenSegmentedSkus_whenSecondLineFails_thenFirstLineUntouched() {
        warmUp(GENEROUS, segmentedItem("a", 10, 4), segmentedItem("b", 2, 8));

        assertThat(reserve("alice", line("a", 9), line("b", 3))).isEqualTo(new InsufficientStock(sku("b"), 2));
        assertThat(stockNow()).containsExactly(stock("a", 10, 0, 0), stock("b", 2, 0, 0));
    }

    // ---- concurrency ----

    @Test
    void givenTenUnits_whenFiftyBuyersRace_thenExactlyTenAreReservedAndNothingIsOversold() throws Exception {
        warmUp(limit(1), segmentedItem("a", 10, 4));
        List<Callable<ReservationOutcome>> attempts = new ArrayList<>();
        for (int buyer = 0; buyer < 50; buyer++) {
            String buyerId = "racer-" + buyer;
            attempts.add(() -> reserve(buyerId, line("a", 1)));
        }

        List<ReservationOutcome> outcomes = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            for (Future<ReservationOutcome> outcome : pool.invokeAll(attempts)) {
                outcomes.add(outcome.get());
            }
        }

        assertThat(outcomes).filteredOn(outcome -> outcome instanceof Reserved).hasSize(10);
        assertThat(outcomes).filteredOn(outcome -> !(outcome instanceof Reserved))
                .allMatch(outcome -> outcome.equals(new SoldOut(sku("a"))));
        assertThat(stockNow()).containsExactly(stock("a", 10, 10, 0));
    }
}
