package io.flashsale.adapter.mysql;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
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
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import javax.sql.DataSource;

import static io.flashsale.adapter.mysql.ReconciliationSales.A;
import static io.flashsale.adapter.mysql.ReconciliationSales.B;
import static io.flashsale.adapter.mysql.ReconciliationSales.line;
import static io.flashsale.adapter.mysql.ReconciliationSales.token;
import static io.flashsale.domain.reservation.ReservationStatus.CANCELLED;
import static io.flashsale.domain.reservation.ReservationStatus.EXPIRED;
import static io.flashsale.domain.reservation.ReservationStatus.FAILED;
import static io.flashsale.domain.reservation.ReservationStatus.ORDERED;
import static io.flashsale.domain.reservation.ReservationStatus.PAID;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The orders made in one slice (ADR 111) read in pages from real orders: a sale in three slices with orders in every
 * status in each slice, and the sales whose ids sort right beside the sale's (an activity id with a '-' or a '0' after
 * the sale's), whose orders no page of the sale's slices may hold.
 */
@SpringBootTest(classes = MysqlAdapterTestApplication.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MysqlRecordedSliceOrdersIT extends ReconciliationDatabase {

    private static final SaleSlices THREE = new SaleSlices(3);
    private static final int PAGE = 2;

    @Autowired
    MysqlRecordedOrders recordedOrders;

    @Autowired
    MysqlActivityRepository activities;

    @Autowired
    MysqlOrderRepository orders;

    @Autowired
    SqlSessionFactory sessions;

    @Autowired
    DataSource dataSource;

    /**
     * Each slice in pages of two: full pages until the last, then an empty one; together exactly the slice's orders,
     * each once, in id order, each with its status and lines as the database holds it. The slices together are the
     * activity-wide read.
     */
    @Test
    void givenASaleInThreeSlices_whenEachIsReadInPagesOfTwo_thenEachPageHoldsOnlyThatSlicesOrdersInIdOrder() {
        Sale sale = saleInThreeSlicesWithNeighbours();
        List<Order> everySlice = new ArrayList<>();

        for (int k = 0; k < THREE.count(); k++) {
            SaleSlice slice = slice(sale.id, k);
            List<List<Order>> pages = pages(after -> recordedOrders.ordersAfter(slice, after, PAGE));
            List<Order> read = pages.stream().flatMap(List::stream).toList();

            assertThat(pages.subList(0, pages.size() - 1)).as("slice " + k + ": every page but the last is full")
                    .allSatisfy(page -> assertThat(page).hasSize(PAGE));
            assertThat(read).extracting(Order::id).as("slice " + k)
                    .containsExactlyElementsOf(sale.madeIn(k));
            for (Order order : read) {
                assertThat(order.status()).as(order.id().value()).isEqualTo(sale.status(order.id()));
                assertThat(order.lines()).as(order.id().value()).isEqualTo(sale.lines(order.id()));
                assertThat(order).isEqualTo(orders.find(order.id()).orElseThrow());
            }
            everySlice.addAll(read);
        }
        assertThat(everySlice).extracting(Order::status).contains(ORDERED, PAID, CANCELLED, EXPIRED, FAILED);
        assertThat(everySlice).isEqualTo(inPages(after -> recordedOrders.ordersAfter(sale.id, after, PAGE)));
    }

    /** Slice 0 of a sale of one slice is every order of the sale, as the activity-wide read returns them. */
    @Test
    void givenASaleOfOneSlice_thenItsOneSliceIsEveryOrderOfTheSale() {
        ReconciliationSales sales = new ReconciliationSales(activities, orders);
        ActivityId id = new ActivityId("rsx-" + token().substring(0, 12));
        sales.sale(id, SaleSlices.ONE, 10, 4);
        neighbours(sales, id);
        List<Reservation> placed = List.of(sales.reservation(id, "ann", line(A, 2), line(B, 1)),
                sales.reservation(id, "bob", line(A, 1)), sales.reservation(id, "cid", line(A, 3)),
                sales.reservation(id, "dee", line(A, 9)), sales.reservation(id, "eve", line(B, 2)));
        placed.forEach(sales::place);
        assertThat(orders.markPaid(placed.get(1).id(), sales.era.plusSeconds(20))).isTrue();
        assertThat(orders.closeWithRestore(placed.get(2).id(), CANCELLED, sales.era.plusSeconds(30))).isTrue();
        assertThat(orders.closeWithRestore(placed.get(4).id(), EXPIRED, sales.era.plusSeconds(30))).isTrue();
        SaleSlice theOne = new SaleSlice(id, 0, SaleSlices.ONE);

        List<Order> slice = inPages(after -> recordedOrders.ordersAfter(theOne, after, PAGE));

        assertThat(slice).extracting(Order::id).containsExactlyElementsOf(
                placed.stream().map(Reservation::id).sorted(Comparator.comparing(ReservationId::value)).toList());
        assertThat(slice).isEqualTo(inPages(after -> recordedOrders.ordersAfter(id, after, PAGE)));
        assertThat(slice).extracting(Order::status)
                .containsExactlyInAnyOrder(ORDERED, PAID, CANCELLED, FAILED, EXPIRED);
    }

    /**
     * The cursor must be an id of the slice: one of another slice of the sale, of the sale's form without slices, or
     * of a neighbouring sale is refused, not read as a place in this slice. An id of the slice that is no order is one.
     */
    @Test
    void givenACursorOfAnotherSliceOrSale_thenThePageIsRefused() {
        Sale sale = saleInThreeSlicesWithNeighbours();
        SaleSlice one = slice(sale.id, 1);
        List<ReservationId> elsewhere = List.of(sale.madeIn(0).getLast(), sale.madeIn(2).getFirst(),
                ReservationId.of(sale.id, "0"), ReservationId.of(slice(new ActivityId(sale.id.value() + "0"), 1), "0"),
                ReservationId.of(new ActivityId(sale.id.value() + "-"), "0"));

        for (ReservationId after : elsewhere) {
            assertThatThrownBy(() -> recordedOrders.ordersAfter(one, Optional.of(after), PAGE)).as(after.value())
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(after.value());
        }
        assertThat(recordedOrders.ordersAfter(one, Optional.of(ReservationId.of(one, "0")), PAGE))
                .as("before every token of the slice").extracting(Order::id)
                .containsExactlyElementsOf(sale.madeIn(1).subList(0, PAGE));
        assertThatThrownBy(() -> recordedOrders.ordersAfter(one, Optional.empty(), 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * A page is one range of the primary key and reads its own rows only: the plan says so, and ANALYZE counts the
     * rows read, the slice's orders for a page that holds them all, the page's for a page of two. Values are bound.
     */
    @Test
    void givenASlice_thenAPageIsReadAsOneRangeOfThePrimaryKey() {
        Sale sale = saleInThreeSlicesWithNeighbours();
        ReservationRange range = ReservationRange.of(slice(sale.id, 1));
        Map<String, Object> whole = new HashMap<>(Map.of("from", range.from(), "to", range.to(), "max", 100));
        whole.put("after", null);
        Map<String, Object> next = new HashMap<>(Map.of("from", range.from(), "to", range.to(), "max", PAGE,
                "after", sale.madeIn(1).getFirst().value()));

        for (Map<String, Object> parameters : List.of(whole, next)) {
            assertThat(bound(parameters).getSql()).doesNotContain(sale.id.value());
            List<Map<String, Object>> plan = plan("EXPLAIN", parameters);
            assertThat(plan).as(plan.toString()).singleElement()
                    .satisfies(table -> assertThat(table.get("type")).isEqualTo("range"))
                    .satisfies(table -> assertThat(table.get("key")).isEqualTo("PRIMARY"));
        }
        assertThat(rowsRead(whole)).as("the slice's orders").isEqualTo(sale.madeIn(1).size());
        assertThat(rowsRead(next)).as("the page's orders").isEqualTo(PAGE);
    }

    // ---- the sale ----

    /**
     * A sale in three slices: slice 0 with orders ORDERED, PAID, CANCELLED and EXPIRED, slice 1 with those and one the
     * database refused (FAILED), slice 2 with three; and its neighbours.
     */
    private Sale saleInThreeSlicesWithNeighbours() {
        ReconciliationSales sales = new ReconciliationSales(activities, orders);
        ActivityId id = new ActivityId("rsr-" + token().substring(0, 12));
        sales.sale(id, THREE, 100, 50);
        neighbours(sales, id);
        Sale sale = new Sale(id, new LinkedHashMap<>(), new HashMap<>());
        place(sale, sales, 0, "ann", ORDERED, line(A, 2), line(B, 1));
        place(sale, sales, 0, "bob", PAID, line(A, 1));
        place(sale, sales, 0, "cid", CANCELLED, line(A, 3));
        place(sale, sales, 0, "dee", EXPIRED, line(A, 1), line(B, 2));
        place(sale, sales, 1, "eve", PAID, line(A, 2), line(B, 2));
        place(sale, sales, 1, "fay", EXPIRED, line(A, 1));
        place(sale, sales, 1, "gus", FAILED, line(A, 9));
        place(sale, sales, 1, "hal", ORDERED, line(A, 1), line(B, 1));
        place(sale, sales, 1, "ivy", CANCELLED, line(B, 1));
        place(sale, sales, 2, "jon", ORDERED, line(A, 4));
        place(sale, sales, 2, "kim", CANCELLED, line(A, 2));
        place(sale, sales, 2, "lea", PAID, line(B, 1));
        return sale;
    }

    /**
     * The sales whose reservation ids sort right beside the sale's: {@code <id>-.…} just below {@code <id>.}, and
     * {@code <id>0.…} (in three slices too, so {@code <id>0.1of3.…}) just above {@code <id>/}, with orders in several
     * statuses.
     */
    private void neighbours(ReconciliationSales sales, ActivityId sale) {
        ActivityId below = new ActivityId(sale.value() + "-");
        ActivityId above = new ActivityId(sale.value() + "0");
        sales.sale(below, SaleSlices.ONE, 100, 50);
        sales.sale(above, THREE, 100, 50);
        List<Reservation> theirs = new ArrayList<>();
        for (String buyer : List.of("ann", "eve", "jon")) {
            theirs.add(sales.reservation(below, buyer, line(A, 1), line(B, 1)));
            for (int k = 0; k < THREE.count(); k++) {
                theirs.add(sales.reservation(slice(above, k), buyer, line(A, 1), line(B, 1)));
            }
        }
        theirs.forEach(sales::place);
        assertThat(orders.closeWithRestore(theirs.get(0).id(), CANCELLED, sales.era.plusSeconds(30))).isTrue();
        assertThat(orders.closeWithRestore(theirs.get(2).id(), EXPIRED, sales.era.plusSeconds(30))).isTrue();
        assertThat(orders.markPaid(theirs.get(5).id(), sales.era.plusSeconds(20))).isTrue();
    }

    /** An order of the sale made in slice k, brought to {@code status}: FAILED by asking more than the limit. */
    private void place(Sale sale, ReconciliationSales sales, int k, String buyer, ReservationStatus status,
                       ReservationLine... lines) {
        Reservation reservation = sales.reservation(slice(sale.id, k), buyer, lines);
        assertThat(sales.place(reservation)).isNotNull();
        switch (status) {
            case PAID -> assertThat(orders.markPaid(reservation.id(), sales.era.plusSeconds(20))).isTrue();
            case CANCELLED, EXPIRED -> assertThat(orders.closeWithRestore(reservation.id(), status,
                    sales.era.plusSeconds(30))).isTrue();
            default -> {
            }
        }
        assertThat(orders.find(reservation.id()).orElseThrow().status()).isEqualTo(status);
        sale.placed.put(reservation.id(), reservation);
        sale.statuses.put(reservation.id(), status);
    }

    private static SaleSlice slice(ActivityId sale, int k) {
        return new SaleSlice(sale, k, THREE);
    }

    /** Every page {@code read} returns from the first after none to the first empty one, which is left out. */
    private static List<List<Order>> pages(Function<Optional<ReservationId>, List<Order>> read) {
        List<List<Order>> pages = new ArrayList<>();
        List<Order> page = read.apply(Optional.empty());
        while (!page.isEmpty()) {
            assertThat(page).hasSizeLessThanOrEqualTo(PAGE);
            pages.add(page);
            ReservationId after = page.getLast().id();
            page = read.apply(Optional.of(after));
            // Past the cursor, so the paging ends.
            assertThat(page).allSatisfy(order -> assertThat(order.id().value()).isGreaterThan(after.value()));
        }
        return pages;
    }

    private static List<Order> inPages(Function<Optional<ReservationId>, List<Order>> read) {
        return pages(read).stream().flatMap(List::stream).toList();
    }

    // ---- the plan ----

    private BoundSql bound(Map<String, Object> parameters) {
        return sessions.getConfiguration()
                .getMappedStatement(OrderDao.class.getName() + ".selectOrderIdsInRange")
                .getBoundSql(parameters);
    }

    /** {@code EXPLAIN} or {@code ANALYZE} of the page's statement, as MyBatis binds it for {@code parameters}. */
    private List<Map<String, Object>> plan(String how, Map<String, Object> parameters) {
        BoundSql bound = bound(parameters);
        Object[] values = bound.getParameterMappings().stream().map(ParameterMapping::getProperty)
                .map(parameters::get).toArray();
        return new JdbcTemplate(dataSource).queryForList(how + " " + bound.getSql(), values);
    }

    private double rowsRead(Map<String, Object> parameters) {
        return Double.parseDouble(String.valueOf(plan("ANALYZE", parameters).getFirst().get("r_rows")));
    }

    /** The sale's orders: each one's reservation, slice and the status it was brought to. */
    private record Sale(ActivityId id, Map<ReservationId, Reservation> placed,
                        Map<ReservationId, ReservationStatus> statuses) {

        /** The ids of the orders made in slice k, in id order. */
        List<ReservationId> madeIn(int k) {
            return placed.keySet().stream().filter(id -> id.slice().index() == k)
                    .sorted(Comparator.comparing(ReservationId::value)).toList();
        }

        ReservationStatus status(ReservationId id) {
            return statuses.get(id);
        }

        List<ReservationLine> lines(ReservationId id) {
            return placed.get(id).lines();
        }
    }
}
