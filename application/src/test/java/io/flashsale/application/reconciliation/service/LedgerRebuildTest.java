package io.flashsale.application.reconciliation.service;

import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.application.reconciliation.model.RebuildOutcome;
import io.flashsale.application.reconciliation.port.out.RecordedOrdersPort;
import io.flashsale.application.reconciliation.port.out.RecordedStockPort;
import io.flashsale.application.reference.InMemoryStockReservations;
import io.flashsale.application.testing.RecordingReconciliationMetrics;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.OrderRefusal;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.stock.SkuStock;
import io.flashsale.domain.stock.StockLedger;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.ANN;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.BOB;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.CLOCK;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.NOW;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.OPEN_SALE;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.SALE;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.SKU;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.recorded;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

/** The rebuild's steps against the reference model: pages in id order, the catch-up of a close that raced a page. */
class LedgerRebuildTest {

    private final InMemoryStockReservations hotStore = new InMemoryStockReservations();
    private final RecordedStockPort recordedStock = mock(RecordedStockPort.class);
    private final RecordingReconciliationMetrics metrics = new RecordingReconciliationMetrics();

    @Test
    void givenOrdersOverSeveralPagesAndACloseThatRacedAPage_whenRebuilt_thenTheLedgerIsTheOrdersAndTheCloseLandsOnce() {
        Order annsFirst = order("o1", ANN, ReservationStatus.ORDERED, 2);
        Order bobs = order("o2", BOB, ReservationStatus.ORDERED, 1);
        Order annsSecond = order("o3", ANN, ReservationStatus.PAID, 1);
        Order expired = order("o4", BOB, ReservationStatus.EXPIRED, 3);
        Order failed = order("o5", BOB, ReservationStatus.FAILED, 1);
        // The page reads Bob's order while ORDERED; MySQL expires it a moment later, before the page is written.
        Pages pages = new Pages(List.of(annsFirst, bobs, annsSecond, expired, failed), List.of(bobs.closed(
                ReservationStatus.EXPIRED, NOW)));
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), eq(List.of()), any())).thenReturn(recorded(10, 3, Map.of()));

        RebuildOutcome outcome = new LedgerRebuild(hotStore, hotStore, recordedStock, pages, metrics, CLOCK, 2)
                .run(OPEN_SALE);

        assertThat(outcome).isEqualTo(RebuildOutcome.REBUILT);
        assertThat(pages.afters).containsExactly(Optional.empty(), Optional.of(bobs.id()), Optional.of(expired.id()),
                Optional.of(failed.id()));
        assertThat(hotStore.stock(SALE).orElseThrow()).containsExactly(new SkuStock(SKU, new StockLedger(10, 0, 3)));
        assertThat(hotStore.holdings(SALE, ANN)).isEqualTo(Map.of(SKU, 3L));
        assertThat(hotStore.holdings(SALE, BOB)).isEmpty();
        // An order keeps no record (ADR 71); a restore finds what a restore would: the raced close landed once, and
        // one closed before the rebuild gives nothing back again.
        assertThat(hotStore.findReservation(bobs.id())).isEmpty();
        assertThat(hotStore.restore(PendingRestore.of(bobs.closed(ReservationStatus.EXPIRED, NOW))))
                .contains(ReservationStatus.EXPIRED);
        assertThat(hotStore.restore(PendingRestore.of(expired))).contains(ReservationStatus.EXPIRED);
        assertThat(hotStore.restore(PendingRestore.of(annsFirst.closed(ReservationStatus.CANCELLED, NOW))))
                .as("ordered at the rebuild, closed after it: given back now").contains(ReservationStatus.ORDERED);
        assertThat(hotStore.stock(SALE).orElseThrow()).containsExactly(new SkuStock(SKU, new StockLedger(10, 0, 1)));
        assertThat(hotStore.findReservation(failed.id()).orElseThrow().status()).isEqualTo(ReservationStatus.FAILED);
        assertThat(metrics.rebuilt).containsExactly(SALE);
        assertThat(new LedgerRebuild(hotStore, hotStore, recordedStock, pages, metrics, CLOCK, 2).run(OPEN_SALE))
                .isEqualTo(RebuildOutcome.ALREADY_LOADED);
    }

    @Test
    void givenAnotherRunnerRebuilding_whenRun_thenInProgressAndNothingWritten() {
        hotStore.beginRebuild(SALE, NOW);
        Pages pages = new Pages(List.of(order("o1", ANN, ReservationStatus.ORDERED, 1)), List.of());

        assertThat(new LedgerRebuild(hotStore, hotStore, recordedStock, pages, metrics, CLOCK, 2).run(OPEN_SALE))
                .isEqualTo(RebuildOutcome.IN_PROGRESS);
        assertThat(pages.afters).isEmpty();
        assertThat(hotStore.stock(SALE)).isEmpty();
    }

    private static Order order(String token, BuyerId buyer, ReservationStatus status, int units) {
        ReservationId id = ReservationId.of(SALE, token);
        Instant at = NOW.minusSeconds(60);
        List<ReservationLine> lines = List.of(new ReservationLine(SKU, units));
        Order placed = status == ReservationStatus.FAILED
                ? new Order(id, buyer, new RequestId("q" + token), lines, status,
                OrderRefusal.OUT_OF_STOCK, at, at)
                : new Order(id, buyer, new RequestId("q" + token), lines, ReservationStatus.ORDERED, null, at, at);
        return status == ReservationStatus.ORDERED || status == ReservationStatus.FAILED ? placed
                : placed.closed(status, at);
    }

    /** The database's orders in id order, and what it closed since the rebuild began. */
    private static final class Pages implements RecordedOrdersPort {

        private final List<Order> orders;
        private final List<Order> closed;
        final List<Optional<ReservationId>> afters = new ArrayList<>();

        Pages(List<Order> orders, List<Order> closed) {
            this.orders = orders;
            this.closed = closed;
        }

        @Override
        public List<Order> ordersAfter(ActivityId activityId,
                                       Optional<ReservationId> after, int max) {
            afters.add(after);
            return orders.stream().filter(order -> after.isEmpty()
                    || order.id().value().compareTo(after.get().value()) > 0).limit(max).toList();
        }

        @Override
        public List<Order> orders(Collection<ReservationId> reservationIds) {
            return orders.stream().filter(order -> reservationIds.contains(order.id())).toList();
        }

        @Override
        public List<Order> closedSince(ActivityId activityId, Instant since) {
            return closed;
        }
    }
}
