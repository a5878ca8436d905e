package io.flashsale.domain.stock;

import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.HotReservation;
import io.flashsale.domain.reconciliation.HotSkuSnapshot;
import io.flashsale.domain.reconciliation.LedgerFigures;
import io.flashsale.domain.reconciliation.LedgerRepair;
import io.flashsale.domain.reconciliation.SkuRebuild;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.reservation.ReservationStatus;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The reference's side of reconciliation: what adjust.lua, the snapshot and repair scripts and rebuild.lua mirror. */
class ActivityLedgerReconciliationTest {

    private static final ActivityId ACTIVITY = new ActivityId("sale-1");
    private static final Instant STARTS_AT = Instant.parse("2030-06-01T10:00:00Z");
    private static final Instant OPEN = STARTS_AT.plusSeconds(60);
    private static final SkuId A = new SkuId("a");
    private static final SkuId B = new SkuId("b");
    private static final Activity SALE = new Activity(ACTIVITY, "Sale", STARTS_AT, STARTS_AT.plusSeconds(7200),
            new PurchaseLimit(5), Duration.ofMinutes(15), List.of(ActivityItem.of("a", 10), ActivityItem.of("b", 4)));

    private final AtomicInteger tokens = new AtomicInteger();
    private final ActivityLedger ledger = ActivityLedger.warmUp(SALE);

    private Reservation reserve(String buyer, ReservationLine... lines) {
        ReservationOutcome outcome = ledger.reserve(new ReservationRequest(
                ReservationId.of(ACTIVITY, "t" + tokens.incrementAndGet()), new BuyerId(buyer),
                new RequestId("r" + tokens.get()), List.of(lines), OPEN));
        return ((ReservationOutcome.Reserved) outcome).reservation();
    }

    private StockLedger stockOf(SkuId sku) {
        return ledger.stock().stream().filter(stock -> stock.skuId().equals(sku)).findFirst().orElseThrow().ledger();
    }

    @Test
    void givenAnAdjustment_whenAppliedTwice_thenTotalAndAvailableMoveOnce() {
        reserve("ann", new ReservationLine(A, 3));

        assertThat(ledger.adjust(A, 5, 7)).isEqualTo(new LedgerAdjustment.Applied(new StockLedger(15, 3, 0)));
        assertThat(ledger.adjust(A, 5, 7)).isEqualTo(new LedgerAdjustment.AlreadyApplied());
        assertThat(stockOf(A)).isEqualTo(new StockLedger(15, 3, 0));
    }

    @Test
    void givenAReductionLargerThanWhatIsAvailable_thenRefusedAndNothingMoves() {
        reserve("ann", new ReservationLine(A, 5));

        assertThat(ledger.adjust(A, -6, 1)).isEqualTo(new LedgerAdjustment.Refused(5));
        assertThat(ledger.adjust(A, -5, 2)).isEqualTo(new LedgerAdjustment.Applied(new StockLedger(5, 5, 0)));
        assertThat(ledger.adjust(new SkuId("zz"), 1, 3)).isEqualTo(new LedgerAdjustment.UnknownSku());
    }

    @Test
    void givenReservationsInEveryState_whenSnapshotted_thenTheSkusLedgerHoldingsAndTheReservationsThatMatterAreRead() {
        Reservation reserved = reserve("ann", new ReservationLine(A, 1), new ReservationLine(B, 2));
        Reservation ordered = reserve("bob", new ReservationLine(A, 2));
        ledger.confirm(ordered.id());
        Reservation paid = reserve("cid", new ReservationLine(A, 1));
        ledger.confirm(paid.id());
        ledger.markPaid(paid.id());
        Reservation cancelled = reserve("dee", new ReservationLine(A, 1));
        Instant cancelledAt = OPEN.plusSeconds(3);
        ledger.release(cancelled.id(), cancelledAt);
        Reservation failed = reserve("eve", new ReservationLine(A, 1));
        ledger.fail(failed.id());
        ledger.adjust(A, 2, 9);

        HotSkuSnapshot snapshot = ledger.snapshot(A);

        assertThat(snapshot.figures()).isEqualTo(new LedgerFigures(12, 2, 3, 7));
        assertThat(snapshot.version()).as("ten moves of A: five reserves, two confirms, a release, a failure and an"
                + " adjustment; marking paid moves nothing").endsWith("/10");
        assertThat(snapshot.holdings()).isEqualTo(Map.of(new BuyerId("ann"), 1L, new BuyerId("bob"), 2L,
                new BuyerId("cid"), 1L, new BuyerId("eve"), 1L));
        assertThat(snapshot.appliedAdjustments()).containsExactly(9L);
        assertThat(snapshot.reservations()).containsExactlyInAnyOrder(
                new HotReservation(reserved.id(), new BuyerId("ann"), ReservationStatus.RESERVED, 1, OPEN, null, false),
                new HotReservation(cancelled.id(), new BuyerId("dee"), ReservationStatus.CANCELLED, 1, OPEN, cancelledAt,
                        false),
                new HotReservation(failed.id(), new BuyerId("eve"), ReservationStatus.FAILED, 1, OPEN, null, false));
        assertThat(ledger.snapshot(B).reservations()).extracting(HotReservation::units).containsExactly(2L);
    }

    @Test
    void givenARepairComputedFromTheCurrentFingerprint_thenTheSkusLedgerAndHoldingsAreRewrittenAndOtherSkusUntouched() {
        reserve("ann", new ReservationLine(A, 2), new ReservationLine(B, 1));
        String version = ledger.snapshot(A).version();

        boolean repaired = ledger.repair(new LedgerRepair(A, new LedgerFigures(8, 2, 1, 5),
                Map.of(new BuyerId("ann"), 2L, new BuyerId("bob"), 1L), Set.of(4L), version, 1, 5));

        assertThat(repaired).isTrue();
        assertThat(stockOf(A)).isEqualTo(new StockLedger(8, 2, 1));
        assertThat(ledger.holdings(new BuyerId("bob"))).isEqualTo(Map.of(A, 1L));
        assertThat(ledger.holdings(new BuyerId("ann"))).isEqualTo(Map.of(A, 2L, B, 1L));
        assertThat(stockOf(B)).isEqualTo(new StockLedger(4, 1, 0));
        assertThat(ledger.adjust(A, 1, 4)).as("marked applied").isEqualTo(new LedgerAdjustment.AlreadyApplied());
    }

    @Test
    void givenAReservationAcceptedAfterTheSnapshot_whenRepaired_thenNothingIsWritten() {
        String version = ledger.snapshot(A).version();
        reserve("ann", new ReservationLine(A, 1));

        assertThat(ledger.repair(new LedgerRepair(A, new LedgerFigures(10, 0, 0, 10), Map.of(), Set.of(), version,
                1, 5))).isFalse();
        assertThat(stockOf(A)).isEqualTo(new StockLedger(10, 1, 0));
    }

    @Test
    void givenTwoMovesThatCancelOut_whenRepairedFromTheLookBefore_thenNothingIsWritten() {
        Reservation ann = reserve("ann", new ReservationLine(A, 2));
        HotSkuSnapshot before = ledger.snapshot(A);
        Reservation bob = reserve("bob", new ReservationLine(A, 2));
        ledger.release(ann.id());
        assertThat(ledger.snapshot(A).figures()).as("the same figures as before").isEqualTo(before.figures());

        boolean repaired = ledger.repair(new LedgerRepair(A, new LedgerFigures(10, 2, 0, 8),
                Map.of(new BuyerId("ann"), 2L), Set.of(), before.version(), 1, 5));

        assertThat(repaired).isFalse();
        assertThat(ledger.holdings(new BuyerId("ann"))).isEmpty();
        assertThat(ledger.holdings(new BuyerId("bob"))).isEqualTo(Map.of(A, 2L));
        assertThat(ledger.reservation(bob.id()).orElseThrow().status()).isEqualTo(ReservationStatus.RESERVED);
    }

    @Test
    void givenTheDatabasesFigures_whenRebuilt_thenTotalsSoldAndHoldingsComeBackWithNothingReserved() {
        ActivityLedger rebuilt = ActivityLedger.rebuild(SALE, List.of(
                new SkuRebuild(A, 12, 3, Map.of(new BuyerId("ann"), 3L), Set.of(1L)),
                new SkuRebuild(B, 4, 0, Map.of(), Set.of())));

        assertThat(rebuilt.stock()).containsExactly(new SkuStock(A, new StockLedger(12, 0, 3)),
                new SkuStock(B, StockLedger.of(4)));
        assertThat(rebuilt.held(new BuyerId("ann"), A)).isEqualTo(3);
        assertThat(rebuilt.adjust(A, 5, 1)).isEqualTo(new LedgerAdjustment.AlreadyApplied());
        assertThat(rebuilt.snapshot(A).reservations()).isEmpty();
    }
}
