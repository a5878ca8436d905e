package io.flashsale.adapter.mysql;

import io.flashsale.application.reconciliation.port.out.AdjustmentRecording;
import io.flashsale.application.reconciliation.port.out.PurchaseScope;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.RecordedAdjustment;
import io.flashsale.domain.reconciliation.RecordedOrder;
import io.flashsale.domain.reconciliation.RecordedPurchases;
import io.flashsale.domain.reconciliation.RecordedSku;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.stock.StockAdjustment;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.flashsale.adapter.mysql.ReconciliationSales.A;
import static io.flashsale.adapter.mysql.ReconciliationSales.B;
import static io.flashsale.adapter.mysql.ReconciliationSales.line;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@SpringBootTest(classes = MysqlAdapterTestApplication.class)
class MysqlRecordedStockIT extends ReconciliationDatabase {

    @Autowired
    MysqlRecordedStock recordedStock;

    @Autowired
    MysqlStockAdjustments adjustments;

    @Autowired
    MysqlActivityRepository activities;

    @Autowired
    MysqlOrderRepository orders;

    @Test
    void givenOrdersInEveryStateAndAnAdjustment_thenOneSkusFiguresComeBackAsTheDatabaseHoldsThem() {
        ReconciliationSales sales = new ReconciliationSales(activities, orders);
        Activity sale = sales.sale(10, 4);
        Reservation ordered = sales.reservation(sale.id(), "ann", line(A, 2), line(B, 1));
        Reservation paid = sales.reservation(sale.id(), "bob", line(A, 1));
        Reservation cancelled = sales.reservation(sale.id(), "cid", line(A, 3));
        Reservation refused = sales.reservation(sale.id(), "dee", line(A, 9));
        Reservation unsettled = sales.reservation(sale.id(), "eve", line(A, 1));
        sales.place(ordered);
        sales.place(paid);
        sales.place(cancelled);
        sales.place(refused);
        orders.markPaid(paid.id(), sales.era.plusSeconds(20));
        orders.closeWithRestore(cancelled.id(), ReservationStatus.CANCELLED, sales.era.plusSeconds(30));
        StockAdjustment adjustment = ((AdjustmentRecording.Recorded) adjustments.record(sale.id(), A, 2, "admin",
                "more", sales.era.plusSeconds(40))).adjustment();

        RecordedSku a = recordedStock.recordedSku(sale.id(), A,
                List.of(ordered.id(), paid.id(), cancelled.id(), refused.id(), unsettled.id()), PurchaseScope.EVERY)
                .orElseThrow();

        assertThat(a.stock()).isEqualTo(12);
        assertThat(a.sold()).isEqualTo(3);
        assertThat(a.purchases().all()).isEqualTo(Map.of(new BuyerId("ann"), 2L, new BuyerId("bob"), 1L));
        assertThat(a.orders()).containsOnlyKeys(ordered.id(), paid.id(), cancelled.id(), refused.id());
        assertThat(a.orders().get(ordered.id())).isEqualTo(new RecordedOrder(ordered.id(), ReservationStatus.ORDERED,
                true, sales.era.plusSeconds(6)));
        assertThat(a.orders().get(paid.id()).status()).isEqualTo(ReservationStatus.PAID);
        assertThat(a.orders().get(cancelled.id()).wasOrdered()).isTrue();
        assertThat(a.orders().get(refused.id())).isEqualTo(new RecordedOrder(refused.id(), ReservationStatus.FAILED,
                false, sales.era.plusSeconds(6)));
        assertThat(a.restoresOwed()).containsExactly(cancelled.id());
        assertThat(a.adjustments()).containsExactly(new RecordedAdjustment(adjustment.id(), 2, sales.era.plusSeconds(40)));

        RecordedSku b = recordedStock.recordedSku(sale.id(), B, List.of(), PurchaseScope.EVERY).orElseThrow();
        assertThat(b).isEqualTo(new RecordedSku(B, 4, 1, Map.of(new BuyerId("ann"), 1L), Map.of(),
                Set.of(cancelled.id()), List.of()));
    }

    /**
     * A steady look asks for the sum of purchases and the audited buyers' own: the sum is the SKU's sold figure, which
     * the database moves with every purchase, and each buyer asked about is answered, with 0 for one who holds none.
     */
    @Test
    void givenSomeBuyersAskedAbout_thenTheSumIsEveryBuyersAndOnlyThoseBuyersAreRead() {
        ReconciliationSales sales = new ReconciliationSales(activities, orders);
        Activity sale = sales.sale(10, 4);
        List<BuyerId> buyers = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Reservation placed = sales.reservation(sale.id(), "buyer-" + i, line(A, 1 + i % 2));
            sales.place(placed);
            buyers.add(placed.buyerId());
        }
        Reservation cancelled = sales.reservation(sale.id(), "cid", line(A, 2));
        sales.place(cancelled);
        orders.closeWithRestore(cancelled.id(), ReservationStatus.CANCELLED, sales.era.plusSeconds(30));
        // More buyers asked about than one statement takes.
        List<BuyerId> asked = new ArrayList<>(List.of(buyers.get(1), new BuyerId("cid"), new BuyerId("nobody")));
        for (int i = 0; i < MysqlRecordedStock.CHUNK + 20; i++) {
            asked.add(new BuyerId("absent-" + i));
        }

        RecordedPurchases some = recordedStock.recordedSku(sale.id(), A, List.of(), PurchaseScope.of(asked))
                .orElseThrow().purchases();
        RecordedPurchases every = recordedStock.recordedSku(sale.id(), A, List.of(), PurchaseScope.EVERY)
                .orElseThrow().purchases();

        assertThat(every.units()).isEqualTo(9);
        assertThat(some.units()).as("the sum, from sold").isEqualTo(every.units());
        assertThat(some.complete()).isFalse();
        assertThat(some.of(buyers.get(1))).isEqualTo(2);
        assertThat(some.of(new BuyerId("cid"))).as("cancelled: holds none").isZero();
        assertThat(some.of(new BuyerId("absent-" + MysqlRecordedStock.CHUNK))).isZero();
        assertThat(some.byBuyer()).hasSize(asked.size());
        assertThatThrownBy(() -> some.of(buyers.get(0))).as("not asked about")
                .isInstanceOf(IllegalStateException.class);
        assertThat(recordedStock.recordedSku(sale.id(), A, List.of(), PurchaseScope.SUM_ONLY).orElseThrow()
                .purchases().byBuyer()).isEmpty();
    }

    /**
     * A reservation the pipeline refused as its request's duplicate stores no order, only its alias row (ADR 61). It
     * counts as refused (FAILED, at the refusal's time, never ordered), so a hot store still holding it RESERVED is
     * told, as for any refusal, instead of waiting for a re-drive.
     */
    @Test
    void givenAReservationRefusedAsItsRequestsDuplicate_thenItComesBackAsARefusalAndTheRequestsOrderAsItIs() {
        ReconciliationSales sales = new ReconciliationSales(activities, orders);
        Activity sale = sales.sale(10, 4);
        Reservation first = sales.reservation(sale.id(), "ann", line(A, 1));
        Reservation retried = new Reservation(ReservationId.of(sale.id(), ReconciliationSales.token().substring(0, 24)),
                sale.id(), first.buyerId(), first.requestId(), first.lines(), ReservationStatus.RESERVED,
                sales.era.plusSeconds(5));
        sales.place(first);
        orders.placeAll(List.of(retried), sales.era.plusSeconds(7));

        RecordedSku a = recordedStock.recordedSku(sale.id(), A, List.of(first.id(), retried.id()),
                PurchaseScope.SUM_ONLY).orElseThrow();

        assertThat(a.orders().get(retried.id())).isEqualTo(new RecordedOrder(retried.id(), ReservationStatus.FAILED,
                false, sales.era.plusSeconds(7)));
        assertThat(a.orders().get(first.id()).status()).isEqualTo(ReservationStatus.ORDERED);
        assertThat(a.sold()).isEqualTo(1);
    }

    @Test
    void givenManyReservationsAskedAbout_thenTheyAreLookedUpInChunksAndUnknownOnesLeftOut() {
        ReconciliationSales sales = new ReconciliationSales(activities, orders);
        Activity sale = sales.sale(10, 4);
        Reservation placed = sales.reservation(sale.id(), "ann", line(A, 1));
        sales.place(placed);
        List<ReservationId> asked = new ArrayList<>();
        for (int i = 0; i < MysqlRecordedStock.CHUNK + 20; i++) {
            asked.add(ReservationId.of(sale.id(), "none" + i));
        }
        asked.add(placed.id());

        assertThat(recordedStock.recordedSku(sale.id(), A, asked, PurchaseScope.SUM_ONLY).orElseThrow().orders()).containsOnlyKeys(placed.id());
    }

    @Test
    void givenNoSuchSku_thenNothing() {
        ReconciliationSales sales = new ReconciliationSales(activities, orders);
        Activity sale = sales.sale(10, 4);

        assertThat(recordedStock.recordedSku(sale.id(), new SkuId("zz"), List.of(), PurchaseScope.EVERY)).isEmpty();
    }
}
