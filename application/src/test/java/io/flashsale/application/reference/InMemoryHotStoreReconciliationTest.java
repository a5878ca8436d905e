package io.flashsale.application.reference;

import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.application.reconciliation.port.out.LedgerRepairResult;
import io.flashsale.application.reconciliation.port.out.RebuildStart;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reconciliation.HotReservation;
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
import io.flashsale.domain.stock.LedgerAdjustment;
import io.flashsale.domain.stock.SkuStock;
import io.flashsale.domain.stock.StockLedger;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

        Instant since = Instant.parse("2030-06-01T12:00:00Z");
        RebuildStart.Started started = (RebuildStart.Started) store.beginRebuild(SALE.id(), since);
        assertThat(store.beginRebuild(SALE.id(), since)).isEqualTo(new RebuildStart.Rebuilding());
        Order ordered = new Order(ReservationId.of(SALE.id(), "o1"), new BuyerId("ann"), new RequestId("q1"),
                List.of(new ReservationLine(A, 1)), ReservationStatus.ORDERED, null, since, since);
        assertThat(store.rebuildPage(SALE.id(), "not-this-one", Optional.empty(), ordered.id(), List.of(ordered)))
                .isFalse();
        assertThat(store.rebuildPage(SALE.id(), started.rebuildId(), Optional.empty(), ordered.id(), List.of(ordered)))
                .isTrue();
        assertThat(store.finishRebuild(SALE, started.rebuildId(), List.of(new SkuRebuild(A, 3, 1, Map.of(), Set.of()))))
                .isTrue();
        assertThat(store.beginRebuild(SALE.id(), since)).isEqualTo(new RebuildStart.Loaded());
        assertThat(store.stock(SALE.id()).orElseThrow()).containsExactly(new SkuStock(A, new StockLedger(3, 0, 1)));
        assertThat(store.holdings(SALE.id(), new BuyerId("ann"))).isEqualTo(Map.of(A, 1L));
        assertThat(store.findReservation(ordered.id())).as("an order keeps no record (ADR 71)").isEmpty();
        assertThat(store.restoreStatuses(SALE.id(), List.of(PendingRestore.of(ordered, ReservationStatus.CANCELLED))))
                .isEqualTo(Map.of(ordered.id(), ReservationStatus.ORDERED));
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
        assertThat(store.snapshot(SALE.id()).orElseThrow().sku(A).orElseThrow().reservations())
                .as("the confirmed one left its record").extracting(HotReservation::id).containsExactly(reserved.id());
    }
}
