package io.flashsale.adapter.mysql;

import io.flashsale.application.reconciliation.port.out.AdjustmentRecording;
import io.flashsale.application.reconciliation.port.out.PurchaseScope;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.RecordedPurchases;
import io.flashsale.domain.reconciliation.RecordedSku;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import org.apache.ibatis.mapping.BoundSql;
import org.apache.ibatis.mapping.ParameterMapping;
import org.apache.ibatis.session.SqlSessionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import javax.sql.DataSource;

import static io.flashsale.adapter.mysql.ReconciliationSales.A;
import static io.flashsale.adapter.mysql.ReconciliationSales.B;
import static io.flashsale.adapter.mysql.ReconciliationSales.line;
import static io.flashsale.adapter.mysql.ReconciliationSales.token;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One slice's figures (ADR 110) read from real orders: a sale in three slices, orders in every status in each slice,
 * and the sales whose ids sort right beside the sale's (an activity id one character longer, or with a '-' where the
 * sale's has its '.'), which the range of reservation ids must leave out.
 */
@SpringBootTest(classes = MysqlAdapterTestApplication.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MysqlRecordedSliceStockIT extends ReconciliationDatabase {

    private static final SaleSlices THREE = new SaleSlices(3);

    @Autowired
    MysqlRecordedStock recordedStock;

    @Autowired
    MysqlActivityRepository activities;

    @Autowired
    MysqlOrderRepository orders;

    @Autowired
    MysqlStockAdjustments adjustments;

    @Autowired
    SqlSessionFactory sessions;

    @Autowired
    DataSource dataSource;

    /** A buyer whose home is slice 0, 1 or 2 of the sale. */
    private final String ann = homedIn(0, "ann");
    private final String bob = homedIn(0, "bob");
    private final String cid = homedIn(0, "cid");
    private final String dee = homedIn(1, "dee");
    private final String eve = homedIn(1, "eve");
    private final String fay = homedIn(1, "fay");
    private final String gus = homedIn(1, "gus");
    private final String kim = homedIn(1, "kim");
    private final String hal = homedIn(2, "hal");
    private final String ivy = homedIn(2, "ivy");
    private final String jon = homedIn(2, "jon");

    /**
     * Per slice: sold and every buyer's units count only the slice's ORDERED and PAID orders, the restores owed are
     * only the slice's, and the neighbours' orders (same buyers, same SKUs, owing restores) count nowhere.
     */
    @Test
    void givenASaleInThreeSlices_thenEachSlicesFiguresAreItsOwnOrdersOnly() {
        Sliced sale = slicedSaleWithNeighbours();

        RecordedSku a0 = slice(sale, 0, A, List.of(), PurchaseScope.EVERY);
        RecordedSku a1 = slice(sale, 1, A, List.of(), PurchaseScope.EVERY);
        RecordedSku a2 = slice(sale, 2, A, List.of(), PurchaseScope.EVERY);

        assertThat(List.of(a0.stock(), a1.stock(), a2.stock())).as("the SKU's whole stock").containsOnly(100L);
        assertThat(a0.sold()).isEqualTo(4);
        assertThat(a0.purchases().all()).isEqualTo(Map.of(buyer(ann), 3L, buyer(bob), 1L));
        assertThat(a0.restoresOwed()).containsExactly(sale.order("cid"));
        assertThat(a1.sold()).isEqualTo(3);
        assertThat(a1.purchases().all()).isEqualTo(Map.of(buyer(dee), 2L, buyer(gus), 1L));
        assertThat(a1.restoresOwed()).containsExactly(sale.order("eve"));
        assertThat(a2.sold()).isEqualTo(5);
        assertThat(a2.purchases().all()).isEqualTo(Map.of(buyer(hal), 4L, buyer(ivy), 1L));
        assertThat(a2.restoresOwed()).as("one released without owing, one restored since").isEmpty();

        RecordedSku b0 = slice(sale, 0, B, List.of(), PurchaseScope.EVERY);
        RecordedSku b1 = slice(sale, 1, B, List.of(), PurchaseScope.EVERY);
        RecordedSku b2 = slice(sale, 2, B, List.of(), PurchaseScope.EVERY);
        assertThat(b0.purchases().all()).isEqualTo(Map.of(buyer(ann), 1L));
        assertThat(b1.purchases().all()).isEqualTo(Map.of(buyer(dee), 2L, buyer(gus), 1L, buyer(kim), 1L));
        assertThat(b2.sold()).isZero();
        assertThat(b2.purchases().all()).isEmpty();
        assertThat(List.of(b0.sold(), b1.sold(), b2.sold())).containsExactly(1L, 4L, 0L);
    }

    @Test
    void givenASaleInThreeSlices_thenItsSlicesAddUpToTheWholeSku() {
        Sliced sale = slicedSaleWithNeighbours();

        for (SkuId sku : List.of(A, B)) {
            RecordedSku whole = recordedStock.recordedSku(sale.id, sku, List.of(), PurchaseScope.EVERY).orElseThrow();
            long sold = 0;
            Map<BuyerId, Long> purchases = new HashMap<>();
            Set<ReservationId> restoresOwed = new HashSet<>();
            for (int k = 0; k < THREE.count(); k++) {
                RecordedSku part = slice(sale, k, sku, List.of(), PurchaseScope.EVERY);
                sold += part.sold();
                purchases.putAll(part.purchases().all());
                restoresOwed.addAll(part.restoresOwed());
                assertThat(part.adjustments()).isEqualTo(whole.adjustments());
            }
            assertThat(sold).as(sku + ": the slices' sold").isEqualTo(whole.sold()).isPositive();
            assertThat(purchases).isEqualTo(whole.purchases().all());
            assertThat(restoresOwed).isEqualTo(whole.restoresOwed());
        }
    }

    /**
     * The asked buyers' units are their orders in the slice: a buyer of another slice, or one whose order was
     * cancelled, holds none here; their sum is the slice's sold.
     */
    @Test
    void givenSomeBuyersAskedAbout_thenTheSumIsTheSlicesAndEachBuyerHoldsWhatTheirOrdersInTheSliceHold() {
        Sliced sale = slicedSaleWithNeighbours();
        List<BuyerId> asked = new ArrayList<>(List.of(buyer(ann), buyer(cid), buyer(dee), new BuyerId("nobody")));
        // More buyers asked about than one statement takes.
        IntStream.range(0, MysqlRecordedStock.CHUNK + 20).forEach(i -> asked.add(new BuyerId("absent-" + i)));

        RecordedPurchases some = slice(sale, 0, A, List.of(), PurchaseScope.of(asked)).purchases();
        RecordedPurchases sum = slice(sale, 0, A, List.of(), PurchaseScope.SUM_ONLY).purchases();
        RecordedPurchases ofSliceOne = slice(sale, 1, A, List.of(), PurchaseScope.of(asked)).purchases();

        assertThat(some.complete()).isFalse();
        assertThat(some.units()).isEqualTo(4);
        assertThat(some.byBuyer()).hasSize(asked.size());
        assertThat(some.of(buyer(ann))).isEqualTo(3);
        assertThat(some.of(buyer(cid))).as("cancelled").isZero();
        assertThat(some.of(buyer(dee))).as("a buyer of slice 1, in slice 0").isZero();
        assertThat(some.of(new BuyerId("absent-" + MysqlRecordedStock.CHUNK))).isZero();
        assertThat(sum.units()).isEqualTo(4);
        assertThat(sum.byBuyer()).isEmpty();
        assertThat(ofSliceOne.units()).isEqualTo(3);
        assertThat(ofSliceOne.of(buyer(dee))).isEqualTo(2);
        assertThat(ofSliceOne.of(buyer(ann))).as("a buyer of slice 0, in slice 1").isZero();
    }

    @Test
    void givenOrdersAskedAbout_thenTheirStatusesComeBackAsForTheWholeSku() {
        Sliced sale = slicedSaleWithNeighbours();
        ReservationId unknown = ReservationId.of(new SaleSlice(sale.id, 1, THREE), "none");
        List<ReservationId> asked = List.of(sale.order("dee"), sale.order("eve"), sale.order("fay"), sale.order("gus"),
                unknown);

        RecordedSku a1 = slice(sale, 1, A, asked, PurchaseScope.SUM_ONLY);

        assertThat(a1.orders()).containsOnlyKeys(sale.order("dee"), sale.order("eve"), sale.order("fay"),
                sale.order("gus"));
        assertThat(a1.orders().get(sale.order("dee")).status()).isEqualTo(ReservationStatus.PAID);
        assertThat(a1.orders().get(sale.order("eve")).status()).isEqualTo(ReservationStatus.EXPIRED);
        assertThat(a1.orders().get(sale.order("fay")).status()).isEqualTo(ReservationStatus.FAILED);
        assertThat(a1.orders().get(sale.order("fay")).wasOrdered()).isFalse();
        assertThat(a1.orders().get(sale.order("gus")).status()).isEqualTo(ReservationStatus.ORDERED);
        assertThat(a1.orders()).isEqualTo(
                recordedStock.recordedSku(sale.id, A, asked, PurchaseScope.SUM_ONLY).orElseThrow().orders());
    }

    /** Slice 0 of a sale of one slice is the whole sale: the same figures, whatever is asked. */
    @Test
    void givenASaleOfOneSlice_thenItsOneSliceIsTheWholeSku() {
        ReconciliationSales sales = new ReconciliationSales(activities, orders);
        ActivityId id = new ActivityId("rso-" + token().substring(0, 12));
        sales.sale(id, SaleSlices.ONE, 10, 4);
        neighbours(sales, id);
        Reservation ordered = sales.reservation(id, "ann", line(A, 2), line(B, 1));
        Reservation paid = sales.reservation(id, "bob", line(A, 1));
        Reservation cancelled = sales.reservation(id, "cid", line(A, 3));
        Reservation refused = sales.reservation(id, "dee", line(A, 9));
        Reservation second = sales.reservation(id, "ann", line(A, 1));
        List.of(ordered, paid, cancelled, refused, second).forEach(sales::place);
        orders.markPaid(paid.id(), sales.era.plusSeconds(20));
        orders.closeWithRestore(cancelled.id(), ReservationStatus.CANCELLED, sales.era.plusSeconds(30));
        assertThat(adjustments.record(id, A, 2, "admin", "more", sales.era.plusSeconds(40)))
                .isInstanceOf(AdjustmentRecording.Recorded.class);
        List<ReservationId> asked = List.of(ordered.id(), paid.id(), cancelled.id(), refused.id(),
                ReservationId.of(id, "none"));
        SaleSlice theOne = new SaleSlice(id, 0, SaleSlices.ONE);

        for (SkuId sku : List.of(A, B)) {
            for (PurchaseScope scope : List.of(PurchaseScope.EVERY, PurchaseScope.SUM_ONLY,
                    PurchaseScope.of(List.of(new BuyerId("ann"), new BuyerId("cid"), new BuyerId("nobody"))))) {
                RecordedSku whole = recordedStock.recordedSku(id, sku, asked, scope).orElseThrow();
                assertThat(recordedStock.recordedSlice(theOne, sku, asked, scope)).as(sku + " " + scope)
                        .contains(whole);
            }
        }
        RecordedSku a = recordedStock.recordedSlice(theOne, A, asked, PurchaseScope.EVERY).orElseThrow();
        assertThat(a.sold()).isEqualTo(4);
        assertThat(a.stock()).isEqualTo(12);
        assertThat(a.restoresOwed()).containsExactly(cancelled.id());
        assertThat(a.adjustments()).hasSize(1);
    }

    @Test
    void givenNoSuchSku_thenNothing() {
        Sliced sale = slicedSaleWithNeighbours();

        assertThat(recordedStock.recordedSlice(new SaleSlice(sale.id, 1, THREE), new SkuId("zz"), List.of(),
                PurchaseScope.EVERY)).isEmpty();
        assertThat(recordedStock.recordedSlice(new SaleSlice(new ActivityId("absent-" + token().substring(0, 8)), 1,
                THREE), A, List.of(), PurchaseScope.EVERY)).isEmpty();
    }

    /**
     * The statements read a range of the primary key and the slice's rows only: the plan says so, and ANALYZE counts
     * the rows read, which are the slice's orders (or their lines), not the sale's nor its neighbours'.
     */
    @Test
    void givenASlice_thenItsOrdersAreReadAsOneRangeOfThePrimaryKey() {
        Sliced sale = slicedSaleWithNeighbours();
        ReservationRange range = ReservationRange.of(new SaleSlice(sale.id, 1, THREE));
        assertThat(range).isEqualTo(new ReservationRange(sale.id.value() + ".1of3.", sale.id.value() + ".1of3/"));
        Map<String, Object> parameters = new HashMap<>(Map.of("activityId", sale.id.value(), "skuId", A.value(),
                "from", range.from(), "to", range.to(), "statuses", MysqlSalesFigures.STOCK_HOLDING,
                "buyerIds", List.of(dee, gus)));
        Map<String, Long> sliceRows = Map.of(
                "o", count("SELECT COUNT(*) FROM purchase_order WHERE reservation_id LIKE ?",
                        sale.id.value() + ".1of3.%"),
                "l", count("SELECT COUNT(*) FROM purchase_order_line WHERE reservation_id LIKE ?",
                        sale.id.value() + ".1of3.%"));
        assertThat(sliceRows.get("o")).isEqualTo(6);

        for (String statement : List.of("selectUnitsIn", "selectPurchasesIn")) {
            List<Map<String, Object>> plan = plan("EXPLAIN", statement, parameters);
            assertThat(plan).as(statement + ": " + plan).hasSize(2)
                    .allSatisfy(table -> assertThat(table.get("key")).isEqualTo("PRIMARY"));
            assertThat(plan.get(0).get("type")).as(statement + ": " + plan).isEqualTo("range");
            assertThat(plan.get(1).get("type")).as(statement + ": " + plan).isEqualTo("eq_ref");
            Map<String, Object> ranged = plan("ANALYZE", statement, parameters).getFirst();
            assertThat(Double.parseDouble(String.valueOf(ranged.get("r_rows")))).as(statement + ": rows read")
                    .isEqualTo(sliceRows.get(String.valueOf(ranged.get("table"))).doubleValue());
        }
        List<Map<String, Object>> ofBuyers = plan("EXPLAIN", "selectPurchasesOfIn", parameters);
        assertThat(ofBuyers.get(0)).as(ofBuyers.toString())
                .containsEntry("table", "o").containsEntry("type", "range")
                .containsEntry("key", "uk_purchase_order_request");
        assertThat(ofBuyers.get(1)).as(ofBuyers.toString())
                .containsEntry("type", "eq_ref").containsEntry("key", "PRIMARY");
        assertThat(plan("EXPLAIN", "selectRestoresOwed", parameters)).singleElement()
                .satisfies(table -> assertThat(table.get("type")).isEqualTo("range"))
                .satisfies(table -> assertThat(table.get("key")).isEqualTo("ix_purchase_order_hot_store_restore"));
    }

    // ---- the sale ----

    /** A sale in three slices, its orders by buyer name, and neighbours it must not count. */
    private Sliced slicedSaleWithNeighbours() {
        ReconciliationSales sales = new ReconciliationSales(activities, orders);
        ActivityId id = new ActivityId("rsl-" + token().substring(0, 12));
        sales.sale(id, THREE, 100, 50);
        neighbours(sales, id);
        Map<String, Reservation> placed = new HashMap<>();
        // Slice 0: ann holds 3 of a in two orders and 1 of b, bob paid 1, cid cancelled and is owed a restore.
        placed.put("ann", sales.reservation(slice(id, 0), ann, line(A, 2), line(B, 1)));
        placed.put("ann2", sales.reservation(slice(id, 0), ann, line(A, 1)));
        placed.put("bob", sales.reservation(slice(id, 0), bob, line(A, 1)));
        placed.put("cid", sales.reservation(slice(id, 0), cid, line(A, 3)));
        // Slice 1: dee paid, eve expired (owed a restore), fay refused over the limit, gus ordered, kim b only.
        placed.put("dee", sales.reservation(slice(id, 1), dee, line(A, 2), line(B, 2)));
        placed.put("eve", sales.reservation(slice(id, 1), eve, line(A, 1)));
        placed.put("fay", sales.reservation(slice(id, 1), fay, line(A, 9)));
        placed.put("gus", sales.reservation(slice(id, 1), gus, line(A, 1), line(B, 1)));
        placed.put("kim", sales.reservation(slice(id, 1), kim, line(B, 1)));
        placed.put("kim2", sales.reservation(slice(id, 1), kim, line(A, 2)));
        // Slice 2: hal ordered, ivy cancelled one (released, nothing owed) and ordered another, jon's restore done.
        placed.put("hal", sales.reservation(slice(id, 2), hal, line(A, 4)));
        placed.put("ivy", sales.reservation(slice(id, 2), ivy, line(A, 2)));
        placed.put("ivy2", sales.reservation(slice(id, 2), ivy, line(A, 1)));
        placed.put("jon", sales.reservation(slice(id, 2), jon, line(A, 2)));
        placed.values().forEach(reservation -> assertThat(sales.place(reservation)).isNotNull());
        assertThat(orders.markPaid(placed.get("dee").id(), sales.era.plusSeconds(20))).isTrue();
        assertThat(orders.markPaid(placed.get("bob").id(), sales.era.plusSeconds(20))).isTrue();
        close(placed.get("cid"), ReservationStatus.CANCELLED, sales);
        close(placed.get("eve"), ReservationStatus.EXPIRED, sales);
        close(placed.get("kim2"), ReservationStatus.CANCELLED, sales);
        orders.hotStoreRestored(placed.get("kim2").id());
        assertThat(orders.cancelReleased(placed.get("ivy").id(), sales.era.plusSeconds(30))).isTrue();
        close(placed.get("jon"), ReservationStatus.CANCELLED, sales);
        orders.hotStoreRestored(placed.get("jon").id());
        assertThat(orders.find(placed.get("fay").id()).orElseThrow().status()).isEqualTo(ReservationStatus.FAILED);
        return new Sliced(id, placed);
    }

    /**
     * The sales whose reservation ids sort right beside the sale's: {@code <id>-.…} just below {@code <id>.}, and
     * {@code <id>0.…} (in three slices too, so {@code <id>0.1of3.…}) just above {@code <id>/}. Each has orders of
     * the sale's own buyers that hold stock and orders owing a restore.
     */
    private void neighbours(ReconciliationSales sales, ActivityId sale) {
        ActivityId below = new ActivityId(sale.value() + "-");
        ActivityId above = new ActivityId(sale.value() + "0");
        sales.sale(below, SaleSlices.ONE, 100, 50);
        sales.sale(above, THREE, 100, 50);
        List<Reservation> theirs = new ArrayList<>();
        for (String buyer : List.of("ann", ann, dee, hal)) {
            theirs.add(sales.reservation(below, buyer, line(A, 1), line(B, 1)));
            for (int k = 0; k < THREE.count(); k++) {
                theirs.add(sales.reservation(slice(above, k), buyer, line(A, 1), line(B, 1)));
            }
        }
        theirs.forEach(sales::place);
        close(theirs.get(0), ReservationStatus.CANCELLED, sales);
        close(theirs.get(2), ReservationStatus.EXPIRED, sales);
    }

    private void close(Reservation reservation, ReservationStatus status, ReconciliationSales sales) {
        assertThat(orders.closeWithRestore(reservation.id(), status, sales.era.plusSeconds(30))).isTrue();
    }

    private RecordedSku slice(Sliced sale, int k, SkuId sku, List<ReservationId> asked, PurchaseScope scope) {
        return recordedStock.recordedSlice(slice(sale.id, k), sku, asked, scope).orElseThrow();
    }

    private static SaleSlice slice(ActivityId sale, int k) {
        return new SaleSlice(sale, k, THREE);
    }

    private static BuyerId buyer(String name) {
        return new BuyerId(name);
    }

    /** {@code name} with the first number after it that makes slice {@code k} of three the buyer's home. */
    private static String homedIn(int k, String name) {
        for (int i = 0; ; i++) {
            if (THREE.homeOf(new BuyerId(name + i)) == k) {
                return name + i;
            }
        }
    }

    // ---- the plan ----

    /** {@code EXPLAIN} or {@code ANALYZE} of the mapper's statement, as MyBatis binds it for {@code parameters}. */
    private List<Map<String, Object>> plan(String how, String statement, Map<String, Object> parameters) {
        BoundSql bound = sessions.getConfiguration()
                .getMappedStatement(ReconciliationFiguresDao.class.getName() + "." + statement)
                .getBoundSql(parameters);
        Object[] values = bound.getParameterMappings().stream().map(ParameterMapping::getProperty)
                .map(name -> bound.hasAdditionalParameter(name) ? bound.getAdditionalParameter(name)
                        : parameters.get(name))
                .toArray();
        return new JdbcTemplate(dataSource).queryForList(how + " " + bound.getSql(), values);
    }

    private long count(String select, String like) {
        return new JdbcTemplate(dataSource).queryForObject(select, Long.class, like);
    }

    private record Sliced(ActivityId id, Map<String, Reservation> placed) {

        ReservationId order(String name) {
            return placed.get(name).id();
        }
    }
}
