package io.flashsale.application.reference;

import io.flashsale.application.port.out.LedgerRepairResult;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
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
import io.flashsale.domain.stock.LedgerAdjustment;
import io.flashsale.domain.stock.SkuStock;
import io.flashsale.domain.stock.StockLedger;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The reference store's reconciliation side: what it answers for an activity it holds and for one it does not. */
class InMemoryHotStoreReconciliationTest {

    private static final Instant START = Instant.parse("2030-06-01T10:00:00Z");
    private static final SkuId A = new SkuId("a");
    private static final Activity SALE = new Activity(new ActivityId("s1"), "Sale", START, START.plusSeconds(3600),
            PurchaseLimit.ONE, Duration.ofMinutes(15), List.of(ActivityItem.of("a", 3)));

    private final InMemoryStockReservations store = new InMemoryStockReservations();

    private Reservation reserve(String buyer) {
        ReservationOutcome outcome = store.reserve(new ReservationRequest(ReservationId.of(SALE.id(), "t" + buyer),
                new BuyerId(buyer), new RequestId("k"), List.of(new ReservationLine(A, 1)), START.plusSeconds(1)));
        return ((ReservationOutcome.Reserved) outcome).reservation();
    }

    @Test
    void givenAnActivityItDoesNotHold_thenNoSnapshotNothingRepairedOrAdjustedAndARebuildLoadsIt() {
        assertThat(store.snapshot(SALE.id())).isEmpty();
        assertThat(store.repair(SALE.id(), new LedgerRepair(A, LedgerFigures.ZERO, Map.of(), Set.of(), "-|-|-", 1, 1)))
                .isEqualTo(LedgerRepairResult.NOT_LOADED);
        assertThat(store.adjust(SALE.id(), A, 1, 1)).isEqualTo(new LedgerAdjustment.NotLoaded());

        assertThat(store.rebuild(SALE, List.of(new SkuRebuild(A, 3, 1, Map.of(new BuyerId("ann"), 1L), Set.of()))))
                .isTrue();
        assertThat(store.rebuild(SALE, List.of(new SkuRebuild(A, 9, 0, Map.of(), Set.of())))).isFalse();
        assertThat(store.stock(SALE.id()).orElseThrow()).containsExactly(new SkuStock(A, new StockLedger(3, 0, 1)));
    }

    @Test
    void givenAReservation_thenItIsReDrivenOnlyWhileReservedAndTheSnapshotCoversEveryItem() {
        store.warmUp(SALE);
        Reservation reserved = reserve("ann");
        Reservation confirmed = reserve("bob");
        store.confirm(confirmed.id());

        assertThat(store.redrive(reserved.id())).isTrue();
        assertThat(store.redrive(confirmed.id())).isFalse();
        assertThat(store.snapshot(SALE.id()).orElseThrow().skus()).containsOnlyKeys(A);
        assertThat(store.snapshot(SALE.id()).orElseThrow().sku(A).orElseThrow().reservations()).hasSize(2);
    }
}
