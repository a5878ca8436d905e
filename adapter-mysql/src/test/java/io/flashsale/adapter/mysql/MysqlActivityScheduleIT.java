package io.flashsale.adapter.mysql;

import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.stock.SkuStock;
import io.flashsale.domain.stock.StockLedger;
import io.flashsale.testsupport.TestServices;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import javax.sql.DataSource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The queries behind the warm-up and archive schedules against the real server. Every test makes activities of its
 * own and looks only at them among the results, so the tests share one database without seeing each other.
 */
@SpringBootTest(classes = MysqlAdapterTestApplication.class)
class MysqlActivityScheduleIT {

    private static final String DATABASE = TestServices.mariadb().freshDatabase("flashsale_it_schedule");
    private static final String SESSION_ZONE = "-03:30";
    private static final Instant NOW = Instant.parse("2031-03-01T10:00:00Z");
    private static final Duration LEAD = Duration.ofSeconds(60);
    private static final Duration HOUR = Duration.ofHours(1);

    @Autowired
    MysqlActivityRepository activities;

    @Autowired
    MysqlOrderRepository orders;

    @Autowired
    MysqlSettledReservations settled;

    @Autowired
    DataSource dataSource;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TestServices.mariadb().springDatasource(DATABASE).registerIn(registry);
        registry.add("spring.datasource.hikari.connection-init-sql", () -> "SET time_zone = '" + SESSION_ZONE + "'");
    }

    @Test
    void theArchiveColumnAndTheIndexBothSchedulesUseExist() {
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);

        List<String> indexColumns = jdbc.queryForList("""
                SELECT column_name FROM information_schema.statistics
                WHERE table_schema = DATABASE() AND table_name = 'activity' AND index_name = 'ix_activity_unarchived_window'
                ORDER BY seq_in_index""", String.class);
        String nullable = jdbc.queryForObject("""
                SELECT is_nullable FROM information_schema.columns
                WHERE table_schema = DATABASE() AND table_name = 'activity' AND column_name = 'archived_at'""", String.class);

        assertThat(indexColumns).containsExactly("archived_at", "ends_at", "starts_at");
        assertThat(nullable).isEqualTo("YES");
        assertThat(possibleKeys("SELECT id FROM activity WHERE archived_at IS NULL AND ends_at <= '2031-01-01'"))
                .contains("ix_activity_unarchived_window");
        assertThat(possibleKeys("""
                SELECT id FROM activity WHERE archived_at IS NULL AND ends_at > '2031-01-01' AND starts_at <= '2031-01-02'"""))
                .contains("ix_activity_unarchived_window");
    }

    @Test
    void givenWindowsAroundTheLead_whenFindingUnarchivedOverlapping_thenExactlyThoseStartingByTheHorizonAndNotEndedComeBack() {
        Instant horizon = NOW.plus(LEAD);
        ActivityId startsAtHorizon = add(horizon, horizon.plus(HOUR));
        ActivityId startsAfterHorizon = add(horizon.plusMillis(1), horizon.plus(HOUR));
        ActivityId openNow = add(NOW.minus(HOUR), NOW.plus(HOUR));
        ActivityId endsOneMilliAfterNow = add(NOW.minus(HOUR).minus(HOUR), NOW.plusMillis(1));
        ActivityId endsExactlyNow = add(NOW.minus(HOUR), NOW);
        ActivityId endedLongAgo = add(NOW.minus(Duration.ofDays(2)), NOW.minus(Duration.ofDays(1)));
        ActivityId archivedWhileOpen = add(NOW.minus(HOUR), NOW.minusSeconds(1));
        assertThat(activities.markArchived(archivedWhileOpen, NOW)).isTrue();

        List<Activity> found = activities.findUnarchivedOverlapping(NOW, horizon);

        assertThat(ownIds(found.stream().map(Activity::id).toList(), startsAtHorizon, startsAfterHorizon, openNow,
                endsOneMilliAfterNow, endsExactlyNow, endedLongAgo, archivedWhileOpen))
                .as("earliest start first").containsExactly(endsOneMilliAfterNow, openNow, startsAtHorizon);
        assertThat(found).filteredOn(activity -> activity.id().equals(openNow)).singleElement()
                .isEqualTo(activities.findById(openNow).orElseThrow());
    }

    @Test
    void givenInstantsFinerThanAMillisecond_whenFinding_thenTheyCompareExactlyWithTheStoredMilliseconds() {
        ActivityId endsAtNow = add(NOW.minus(HOUR), NOW);
        ActivityId startsAtNow = add(NOW, NOW.plus(HOUR));

        List<ActivityId> justAfter = activities.findUnarchivedOverlapping(NOW.plusNanos(500_000), NOW.plusNanos(500_000))
                .stream().map(Activity::id).toList();
        List<ActivityId> justBefore = activities.findUnarchivedOverlapping(NOW.minusNanos(1), NOW.minusNanos(1))
                .stream().map(Activity::id).toList();

        assertThat(ownIds(justAfter, endsAtNow, startsAtNow)).containsExactly(startsAtNow);
        assertThat(ownIds(justBefore, endsAtNow, startsAtNow)).containsExactly(endsAtNow);
        assertThat(ownIds(activities.findEndedUnarchived(NOW.minusNanos(1)), endsAtNow)).isEmpty();
        assertThat(ownIds(activities.findEndedUnarchived(NOW.plusNanos(1)), endsAtNow)).containsExactly(endsAtNow);
    }

    @Test
    void givenEndedOpenAndArchivedSales_whenFindingEndedUnarchived_thenOnlyTheEndedOnesNotArchivedEarliestEndFirst() {
        ActivityId endsExactlyNow = add(NOW.minus(HOUR), NOW);
        ActivityId endedYesterday = add(NOW.minus(Duration.ofDays(2)), NOW.minus(Duration.ofDays(1)));
        ActivityId stillOpen = add(NOW.minus(HOUR), NOW.plusMillis(1));
        ActivityId notStarted = add(NOW.plus(HOUR), NOW.plus(HOUR).plus(HOUR));
        ActivityId archived = add(NOW.minus(Duration.ofDays(3)), NOW.minus(Duration.ofDays(2)));
        activities.markArchived(archived, NOW);

        List<ActivityId> ended = activities.findEndedUnarchived(NOW);

        assertThat(ownIds(ended, endsExactlyNow, endedYesterday, stillOpen, notStarted, archived))
                .containsExactly(endedYesterday, endsExactlyNow);
    }

    @Test
    void givenArchivedAndUnarchivedSales_whenListingUnarchived_thenOnlyTheUnarchivedComeBackLatestStartFirst() {
        ActivityId later = add(NOW.plus(HOUR), NOW.plus(HOUR).plus(HOUR));
        ActivityId ended = add(NOW.minus(Duration.ofDays(2)), NOW.minus(Duration.ofDays(1)));
        ActivityId open = add(NOW.minus(HOUR), NOW.plus(HOUR));
        ActivityId archived = add(NOW.minus(Duration.ofDays(3)), NOW.minus(Duration.ofDays(2)));
        activities.markArchived(archived, NOW);

        List<ActivityId> listed = activities.findUnarchived(10_000).stream().map(Activity::id).toList();

        assertThat(ownIds(listed, later, ended, open, archived)).containsExactly(later, open, ended);
        assertThat(activities.findUnarchived(1)).hasSize(1);
        assertThat(activities.findUnarchived(1_000).get(0).items()).as("items come with each sale").isNotEmpty();
    }

    @Test
    void givenAnEndedSale_whenMarkedArchived_thenOnceOnlyAndItsTimeIsKeptToTheMillisecond() {
        ActivityId sale = add(NOW.minus(HOUR), NOW);
        Instant at = NOW.plusSeconds(5).plusNanos(123_456_789);
        assertThat(activities.archivedAt(sale)).isEmpty();

        boolean first = activities.markArchived(sale, at);
        boolean second = activities.markArchived(sale, at.plusSeconds(60));

        assertThat(first).isTrue();
        assertThat(second).isFalse();
        assertThat(activities.archivedAt(sale)).contains(NOW.plusSeconds(5).plusMillis(123));
        assertThat(new JdbcTemplate(dataSource).queryForObject(
                "SELECT CAST(archived_at AS CHAR) FROM activity WHERE id = ?", String.class, sale.value()))
                .as("stored as UTC whatever the session zone").isEqualTo("2031-03-01 10:00:05.123");
    }

    @Test
    void givenASaleNotEndedAtTheTimeGiven_whenMarkedArchived_thenItIsRefused() {
        ActivityId sale = add(NOW.minus(HOUR), NOW.plusMillis(1));

        assertThat(activities.markArchived(sale, NOW)).isFalse();
        assertThat(activities.archivedAt(sale)).isEmpty();
    }

    @Test
    void givenAnUnknownSale_thenItIsNeitherArchivedNorMarkableNorHasStockOnRecord() {
        ActivityId unknown = new ActivityId("sched-unknown-" + token().substring(0, 8));

        assertThat(activities.archivedAt(unknown)).isEmpty();
        assertThat(activities.markArchived(unknown, NOW)).isFalse();
        assertThat(activities.recordedStock(unknown)).isEmpty();
    }

    @Test
    void givenSeveralInstancesMarkingTheSameSale_whenTheyRace_thenExactlyOneMarksIt() throws Exception {
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            for (int round = 0; round < 10; round++) {
                ActivityId sale = add(NOW.minus(HOUR), NOW);
                var start = new CountDownLatch(1);
                var marks = new ArrayList<Future<Boolean>>();
                for (int instance = 0; instance < 4; instance++) {
                    Instant at = NOW.plusMillis(instance);
                    marks.add(pool.submit(() -> {
                        start.await();
                        return activities.markArchived(sale, at);
                    }));
                }
                start.countDown();

                var won = new ArrayList<Boolean>();
                for (Future<Boolean> mark : marks) {
                    won.add(mark.get());
                }
                assertThat(won).as("round %d", round).containsOnlyOnce(true);
                assertThat(activities.archivedAt(sale)).as("round %d", round).isPresent();
            }
        }
    }

    @Test
    void givenPlacedAndRefusedOrders_whenArchived_thenTheStockOnRecordAndTheBuyersHoldingsStayAsTheyWere() {
        ActivityId sale = addActivity(NOW.minus(HOUR), NOW, List.of(
                new ActivityItem(new SkuId("zz-last"), 5, 2, 1), new ActivityItem(new SkuId("aa-first"), 3, null, 4)));
        assertThat(activities.recordedStock(sale)).contains(List.of(
                new SkuStock(new SkuId("zz-last"), StockLedger.of(5)), new SkuStock(new SkuId("aa-first"), StockLedger.of(3))));
        place(sale, "alice", line("zz-last", 2), line("aa-first", 1));
        place(sale, "bob", line("aa-first", 1));
        OrderPlacement refused = place(sale, "carol", line("aa-first", 2));
        assertThat(refused).isInstanceOf(OrderPlacement.Refused.class);
        Map<String, List<String>> before = snapshot(sale);

        assertThat(activities.markArchived(sale, NOW)).isTrue();

        assertThat(activities.recordedStock(sale)).as("in item order, nothing reserved").contains(List.of(
                new SkuStock(new SkuId("zz-last"), new StockLedger(5, 0, 2)),
                new SkuStock(new SkuId("aa-first"), new StockLedger(3, 0, 2))));
        assertThat(snapshot(sale)).isEqualTo(before);
        assertThat(before.get("purchases")).as("units held; a refused order may leave a row of 0")
                .filteredOn(purchase -> !purchase.endsWith(" 0"))
                .containsExactly("alice aa-first 1", "alice zz-last 2", "bob aa-first 1");
    }

    @Test
    void givenPlacedRefusedAndUnknownReservations_thenOnlyThoseWithoutAnOrderRowAreUnsettled() {
        ActivityId sale = addActivity(NOW.minus(HOUR), NOW, List.of(ActivityItem.of("sku-1", 1)));
        Reservation placed = reservation(sale, "alice", line("sku-1", 1));
        Reservation refused = reservation(sale, "bob", line("sku-1", 1));
        assertThat(orders.place(placed, NOW)).isInstanceOf(OrderPlacement.Placed.class);
        assertThat(orders.place(refused, NOW)).isInstanceOf(OrderPlacement.Refused.class);
        ReservationId unknown = ReservationId.of(sale, token());
        ReservationId differsInCase = new ReservationId(placed.id().value().toUpperCase(Locale.ROOT));

        Set<ReservationId> unsettled = settled.unsettled(List.of(placed.id(), unknown, refused.id(), differsInCase));

        assertThat(unsettled).containsExactly(unknown, differsInCase);
        assertThat(settled.unsettled(List.of())).isEmpty();
    }

    @Test
    void givenMoreIdsThanOneQueryTakes_thenEveryOneIsJudged() {
        ActivityId sale = addActivity(NOW.minus(HOUR), NOW, List.of(ActivityItem.of("sku-1", 10)));
        var asked = new ArrayList<ReservationId>();
        var placed = new ArrayList<ReservationId>();
        for (int i = 0; i < 3 * MysqlSettledReservations.CHUNK; i++) {
            asked.add(ReservationId.of(sale, token()));
        }
        for (int i = 0; i < asked.size(); i += MysqlSettledReservations.CHUNK - 1) {
            Reservation reservation = reservation(asked.get(i), "buyer-" + i, line("sku-1", 1));
            orders.place(reservation, NOW);
            placed.add(reservation.id());
        }

        Set<ReservationId> unsettled = settled.unsettled(asked);

        assertThat(placed).hasSizeGreaterThan(3);
        assertThat(unsettled).hasSize(asked.size() - placed.size()).doesNotContainAnyElementsOf(placed);
    }

    private OrderPlacement place(ActivityId sale, String buyer, ReservationLine... lines) {
        return orders.place(reservation(sale, buyer, lines), NOW.minus(Duration.ofMinutes(29)));
    }

    private static Reservation reservation(ActivityId sale, String buyer, ReservationLine... lines) {
        return reservation(ReservationId.of(sale, token()), buyer, lines);
    }

    private static Reservation reservation(ReservationId id, String buyer, ReservationLine... lines) {
        return new Reservation(id, id.activityId(), new BuyerId(buyer), new RequestId("req-" + token().substring(0, 8)),
                List.of(lines), ReservationStatus.RESERVED, NOW.minus(Duration.ofMinutes(30)));
    }

    private static ReservationLine line(String sku, int quantity) {
        return new ReservationLine(new SkuId(sku), quantity);
    }

    /** Every row archiving must leave alone: orders, their lines, the buyers' purchases and the stock flow. */
    private Map<String, List<String>> snapshot(ActivityId sale) {
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        return Map.of(
                "orders", jdbc.queryForList("""
                        SELECT CONCAT(reservation_id, ' ', status) FROM purchase_order
                        WHERE activity_id = ? ORDER BY reservation_id""", String.class, sale.value()),
                "lines", jdbc.queryForList("""
                        SELECT CONCAT(l.reservation_id, ' ', l.sku_id, ' ', l.quantity) FROM purchase_order_line l
                        JOIN purchase_order o ON o.reservation_id = l.reservation_id
                        WHERE o.activity_id = ? ORDER BY l.reservation_id, l.sku_id""", String.class, sale.value()),
                "purchases", jdbc.queryForList("""
                        SELECT CONCAT(buyer_id, ' ', sku_id, ' ', quantity) FROM buyer_purchase
                        WHERE activity_id = ? ORDER BY buyer_id, sku_id""", String.class, sale.value()),
                "flows", jdbc.queryForList("""
                        SELECT CONCAT(reservation_id, ' ', sku_id, ' ', kind, ' ', quantity) FROM stock_flow
                        WHERE activity_id = ? ORDER BY reservation_id, sku_id, kind""", String.class, sale.value()),
                "sold", jdbc.queryForList("""
                        SELECT CONCAT(sku_id, ' ', stock, ' ', sold) FROM activity_item
                        WHERE activity_id = ? ORDER BY sku_id""", String.class, sale.value()));
    }

    private List<String> possibleKeys(String select) {
        return new JdbcTemplate(dataSource).queryForList("EXPLAIN " + select).stream()
                .map(row -> String.valueOf(row.get("possible_keys")))
                .toList();
    }

    private ActivityId add(Instant startsAt, Instant endsAt) {
        return addActivity(startsAt, endsAt, List.of(ActivityItem.of("sku-1", 10)));
    }

    private ActivityId addActivity(Instant startsAt, Instant endsAt, List<ActivityItem> items) {
        var id = new ActivityId("sched-" + token().substring(0, 16));
        activities.add(new Activity(id, "Schedule " + id, startsAt, endsAt, PurchaseLimit.ONE,
                Activity.DEFAULT_PAYMENT_TIMEOUT, items));
        return id;
    }

    /** The ids among {@code found} that are one of {@code own}, in the order found. */
    private static List<ActivityId> ownIds(List<ActivityId> found, ActivityId... own) {
        List<ActivityId> mine = List.of(own);
        return found.stream().filter(mine::contains).toList();
    }

    private static String token() {
        return UUID.randomUUID().toString().replace("-", "");
    }
}
