package io.flashsale.adapter.mysql;

import io.flashsale.application.reservation.port.out.ReservationAliasPort;
import io.flashsale.application.shared.port.out.StoreContentionException;
import io.flashsale.application.shared.port.out.StoreUnavailableException;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.order.OrderPlacement.AlreadyPlaced;
import io.flashsale.domain.order.OrderPlacement.Placed;
import io.flashsale.domain.order.OrderPlacement.Refused;
import io.flashsale.domain.order.OrderRefusal;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.testsupport.TestServices;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.TransactionException;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The MySQL order repository against the real server: one transaction per reservation, nothing half-written on
 * a refusal, redeliveries that change nothing, and races between real threads on real row locks. The database
 * session runs in a non-UTC zone so stored times are shown to be UTC.
 */
@SpringBootTest(classes = MysqlAdapterTestApplication.class)
class MysqlOrderRepositoryIT {

    private static final String DATABASE = TestServices.mariadb().freshDatabase("flashsale_it_orders");
    private static final String SESSION_ZONE = "+05:45";
    /** Short enough for the lock tests to wait it out, far above any wait the races cause. */
    private static final int LOCK_WAIT_SECONDS = 3;
    private static final Instant RESERVED_AT = Instant.parse("2026-12-01T10:00:00.250Z");
    private static final Instant NOW = Instant.parse("2026-12-01T10:00:01.500Z");

    @Autowired
    MysqlOrderRepository orders;

    @Autowired
    MysqlActivityRepository activities;

    @Autowired
    MysqlSalesFigures figures;

    @Autowired
    ReservationAliasPort aliases;

    @Autowired
    DataSource dataSource;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TestServices.mariadb().springDatasource(DATABASE).registerIn(registry);
        registry.add("spring.datasource.hikari.maximum-pool-size", () -> "16");
        registry.add("spring.datasource.hikari.connection-init-sql",
                () -> "SET time_zone = '" + SESSION_ZONE + "', innodb_lock_wait_timeout = " + LOCK_WAIT_SECONDS);
    }

    @Test
    void givenAReservation_whenPlaced_thenOrderLinesPurchasesFlowsAndSoldAreWrittenTogether() {
        ActivityId sale = sale(PurchaseLimit.ONE, item("b-item", 5, 3), item("a-item", 10, null));
        Reservation reservation = reservation(sale, "buyer-1", line("b-item", 3), line("a-item", 1));

        OrderPlacement placement = orders.place(reservation, NOW);

        Order expected = new Order(reservation.id(), reservation.buyerId(), reservation.requestId(),
                reservation.lines(), ReservationStatus.ORDERED, null, RESERVED_AT, NOW);
        assertThat(placement).isEqualTo(new Placed(expected));
        assertThat(orders.find(reservation.id())).contains(expected);
        assertThat(rows(sale)).isEqualTo(new Rows(
                List.of(reservation.id() + " ORDERED null"),
                List.of(reservation.id() + " 0 b-item 3", reservation.id() + " 1 a-item 1"),
                List.of("buyer-1 a-item 1", "buyer-1 b-item 3"),
                List.of(reservation.id() + " a-item SALE 1", reservation.id() + " b-item SALE 3"),
                List.of("a-item 1", "b-item 3")));
        assertThat(figures.soldBySku(sale)).isEqualTo(units("a-item", 1, "b-item", 3));
        assertThat(figures.stockFlowBySku(sale)).isEqualTo(units("a-item", 1, "b-item", 3));
        assertThat(figures.orderedUnitsBySku(sale)).isEqualTo(units("a-item", 1, "b-item", 3));
        assertThat(figures.orderCountByStatus(sale)).isEqualTo(Map.of(ReservationStatus.ORDERED, 1L));
    }

    @Test
    void givenTimesFinerThanAMillisecond_whenPlaced_thenTheyAreStoredAsUtcMillisecondsAndRoundTrip() {
        ActivityId sale = sale(PurchaseLimit.ONE, item("sku", 5, null));
        Reservation reservation = new Reservation(ReservationId.of(sale, token()), sale, new BuyerId("buyer-1"),
                new RequestId("req-1"), List.of(line("sku", 1)), ReservationStatus.RESERVED,
                Instant.parse("2026-07-01T23:59:59.123999999Z"));
        Instant now = Instant.parse("2026-07-02T00:00:00.000999Z");

        Order placed = orders.place(reservation, now).order();

        assertThat(jdbc().queryForObject("SELECT @@session.time_zone", String.class)).isEqualTo(SESSION_ZONE);
        assertThat(jdbc().queryForMap("""
                SELECT CAST(reserved_at AS CHAR) AS reserved, CAST(placed_at AS CHAR) AS placed,
                       CAST(updated_at AS CHAR) AS updated
                FROM purchase_order WHERE reservation_id = ?""", reservation.id().value()))
                .isEqualTo(Map.of("reserved", "2026-07-01 23:59:59.123", "placed", "2026-07-02 00:00:00.000",
                        "updated", "2026-07-02 00:00:00.000"));
        assertThat(jdbc().queryForObject("SELECT CAST(created_at AS CHAR) FROM stock_flow WHERE reservation_id = ?",
                String.class, reservation.id().value())).isEqualTo("2026-07-02 00:00:00.000");
        assertThat(placed.reservedAt()).isEqualTo(Instant.parse("2026-07-01T23:59:59.123Z"));
        assertThat(placed.placedAt()).isEqualTo(Instant.parse("2026-07-02T00:00:00Z"));
        assertThat(orders.find(reservation.id())).contains(placed);
    }

    @Test
    void givenAPlacedReservation_whenDeliveredAgain_thenItIsAlreadyPlacedAndNoRowChanges() {
        ActivityId sale = sale(new PurchaseLimit(5), item("a", 10, null), item("b", 10, null));
        Reservation reservation = reservation(sale, "buyer-1", line("a", 2), line("b", 1));
        Order placed = orders.place(reservation, NOW).order();
        Rows before = rows(sale);

        OrderPlacement again = orders.place(reservation, NOW.plusSeconds(30));

        assertThat(again).isEqualTo(new AlreadyPlaced(placed));
        assertThat(rows(sale)).isEqualTo(before);
    }

    @Test
    void givenAnOrderForARequest_whenAnotherReservationOfTheSameRequestArrives_thenRefusedAsDuplicateAndNothingStored() {
        ActivityId sale = sale(new PurchaseLimit(5), item("a", 10, null));
        Reservation first = reservation(sale, "buyer-1", line("a", 2));
        Reservation retried = sameRequest(first);
        orders.placeAll(List.of(first), NOW);
        Rows before = rows(sale);

        OrderPlacement single = orders.place(retried, NOW.plusSeconds(1));
        List<OrderPlacement> batched = orders.placeAll(List.of(retried), NOW.plusSeconds(2));

        assertThat(single).isInstanceOf(Refused.class);
        assertThat(single.order().failureReason()).isEqualTo(OrderRefusal.DUPLICATE_REQUEST);
        assertThat(batched).singleElement().isInstanceOf(Refused.class);
        assertThat(batched.getFirst().order().failureReason()).isEqualTo(OrderRefusal.DUPLICATE_REQUEST);
        assertThat(rows(sale)).isEqualTo(before);
        assertThat(orders.find(retried.id())).isEmpty();
    }

    @Test
    void givenTwoReservationsOfOneRequestInOneBatch_whenPlaced_thenTheFirstIsPlacedAndTheSecondRefused() {
        ActivityId sale = sale(new PurchaseLimit(5), item("a", 10, null));
        Reservation first = reservation(sale, "buyer-1", line("a", 2));
        Reservation retried = sameRequest(first);

        List<OrderPlacement> placements = orders.placeAll(List.of(first, retried), NOW);

        assertThat(placements.getFirst()).isInstanceOf(Placed.class);
        assertThat(placements.get(1)).isInstanceOf(Refused.class);
        assertThat(placements.get(1).order().failureReason()).isEqualTo(OrderRefusal.DUPLICATE_REQUEST);
        assertThat(rows(sale).orders()).containsExactly(first.id() + " ORDERED null");
        assertThat(rows(sale).sold()).containsExactly("a 2");
    }

    @Test
    void givenAnOrderForARequest_whenABatchRefusesAnotherReservationOfIt_thenItsAliasIsWrittenOnceAndARedeliveryChangesNothing() {
        ActivityId sale = sale(new PurchaseLimit(5), item("a", 10, null));
        Reservation first = reservation(sale, "buyer-1", line("a", 2));
        orders.placeAll(List.of(first), NOW);
        Reservation retried = sameRequest(first);
        Reservation other = reservation(sale, "buyer-2", line("a", 1));
        List<Reservation> batch = List.of(retried, other);

        List<OrderPlacement> placements = orders.placeAll(batch, NOW.plusSeconds(1));

        assertThat(placements.getFirst().order().failureReason()).isEqualTo(OrderRefusal.DUPLICATE_REQUEST);
        assertThat(placements.get(1)).isInstanceOf(Placed.class);
        assertThat(aliasRows(sale)).containsExactly(retried.id() + " -> " + first.id() + " buyer-1 2026-12-01 10:00:02.500");
        assertThat(aliases.orderReservationOf(retried.id())).contains(first.id());
        assertThat(aliases.orderReservationOf(first.id())).isEmpty();
        assertThat(orders.find(retried.id())).as("the refusal itself stores no order").isEmpty();
        Rows before = rows(sale);

        List<OrderPlacement> again = orders.placeAll(batch, NOW.plusSeconds(30));
        orders.place(retried, NOW.plusSeconds(40));

        assertThat(again.getFirst().order().failureReason()).isEqualTo(OrderRefusal.DUPLICATE_REQUEST);
        assertThat(again.get(1)).isInstanceOf(AlreadyPlaced.class);
        assertThat(aliasRows(sale)).as("one row, as first written")
                .containsExactly(retried.id() + " -> " + first.id() + " buyer-1 2026-12-01 10:00:02.500");
        assertThat(rows(sale)).isEqualTo(before);
    }

    @Test
    void givenTwoReservationsOfOneRequestInOneBatch_whenPlaced_thenTheSecondIsAnAliasOfTheFirstsOrder() {
        ActivityId sale = sale(new PurchaseLimit(5), item("a", 10, null));
        Reservation first = reservation(sale, "buyer-1", line("a", 2));
        Reservation retried = sameRequest(first);

        orders.placeAll(List.of(first, retried), NOW);

        assertThat(aliasRows(sale)).containsExactly(retried.id() + " -> " + first.id() + " buyer-1 2026-12-01 10:00:01.500");
    }

    @Test
    void givenOnlyDuplicatesInABatchOrASingleDelivery_whenRefused_thenEachStillGetsItsAlias() {
        ActivityId sale = sale(new PurchaseLimit(5), item("a", 10, null));
        Reservation first = reservation(sale, "buyer-1", line("a", 1));
        orders.place(first, NOW);
        Reservation batched = sameRequest(first);
        Reservation single = sameRequest(first);

        orders.placeAll(List.of(batched), NOW);
        orders.place(single, NOW);

        assertThat(aliases.orderReservationOf(batched.id())).contains(first.id());
        assertThat(aliases.orderReservationOf(single.id())).contains(first.id());
        assertThat(rows(sale).orders()).containsExactly(first.id() + " ORDERED null");
    }

    @Test
    void givenTheBatchTransactionFails_whenItRefusedADuplicate_thenNoAliasIsLeftAndItsRetryWritesIt() throws Exception {
        ActivityId sale = sale(new PurchaseLimit(5), item("a", 10, null));
        Reservation first = reservation(sale, "buyer-1", line("a", 1));
        orders.place(first, NOW);
        Reservation retried = sameRequest(first);
        List<Reservation> batch = List.of(retried, reservation(sale, "buyer-2", line("a", 1)));

        try (Connection blocker = dataSource.getConnection()) {
            blocker.setAutoCommit(false);
            try (PreparedStatement lock = blocker.prepareStatement(
                    "SELECT sold FROM activity_item WHERE activity_id = ? AND sku_id = 'a' FOR UPDATE")) {
                lock.setString(1, sale.value());
                lock.executeQuery().close();
            }
            // The batch writes its orders and the alias, then waits for the SKU's row and gives up: all rolled back.
            assertThatThrownBy(() -> orders.placeAll(batch, NOW)).isInstanceOf(RuntimeException.class);
            blocker.rollback();
        }
        assertThat(aliasRows(sale)).isEmpty();

        orders.placeAll(batch, NOW);

        assertThat(aliases.orderReservationOf(retried.id())).contains(first.id());
    }

    @Test
    void givenTheUniqueRequestKey_whenARowOfTheSameRequestIsInsertedDirectly_thenTheDatabaseRefusesIt() {
        ActivityId sale = sale(new PurchaseLimit(5), item("a", 10, null));
        Reservation first = reservation(sale, "buyer-1", line("a", 1));
        orders.place(first, NOW);

        assertThatThrownBy(() -> jdbc().update("""
                INSERT INTO purchase_order (reservation_id, activity_id, buyer_id, request_id, status, failure_reason,
                                            reserved_at, placed_at, updated_at)
                SELECT ?, activity_id, buyer_id, request_id, 'FAILED', 'X', reserved_at, placed_at, updated_at
                FROM purchase_order WHERE reservation_id = ?""", sale.value() + "." + token(), first.id().value()))
                .isInstanceOf(DuplicateKeyException.class);
    }

    @Test
    void givenOneRequestDeliveredAsTwoReservationsFromEightThreads_whenTheyRace_thenExactlyOneOrderStands()
            throws Exception {
        ActivityId sale = sale(new PurchaseLimit(8), item("a", 100, null));
        Reservation first = reservation(sale, "buyer-1", line("a", 1));
        List<Reservation> copies = new ArrayList<>(List.of(first));
        for (int i = 1; i < 8; i++) {
            copies.add(sameRequest(first));
        }
        CountDownLatch start = new CountDownLatch(1);
        List<Future<OrderPlacement>> futures = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(copies.size())) {
            for (Reservation copy : copies) {
                futures.add(pool.submit(() -> {
                    start.await();
                    for (int attempt = 1; ; attempt++) {
                        try {
                            return orders.placeAll(List.of(copy), NOW).getFirst();
                        } catch (DataAccessException | IllegalStateException racedOnTheKey) {
                            // The unique key failed a batch that raced another; the consumer's retry decides it.
                            if (attempt == 10) {
                                throw racedOnTheKey;
                            }
                        }
                    }
                }));
            }
            start.countDown();
            Map<String, Long> outcomes = new HashMap<>();
            for (Future<OrderPlacement> future : futures) {
                OrderPlacement placement = future.get(1, TimeUnit.MINUTES);
                outcomes.merge(placement instanceof Placed ? "Placed"
                        : "Refused " + placement.order().failureReason(), 1L, Long::sum);
            }
            assertThat(outcomes).isEqualTo(Map.of("Placed", 1L, "Refused DUPLICATE_REQUEST", 7L));
        }
        assertThat(rows(sale).orders()).hasSize(1);
        assertThat(rows(sale).sold()).containsExactly("a 1");
    }

    @Test
    void givenTheSecondSkuOverTheLimit_whenPlaced_thenRefusedFailedStoredAndTheFirstSkuUntouched() {
        ActivityId sale = sale(new PurchaseLimit(5), item("a-first", 10, null), item("b-second", 10, 1));
        orders.place(reservation(sale, "buyer-1", line("b-second", 1)), NOW);
        Rows before = rows(sale);
        // Listed b first on purpose: the adapter works in SKU order, so a-first passes before b-second fails.
        Reservation greedy = reservation(sale, "buyer-1", line("b-second", 1), line("a-first", 2));

        OrderPlacement placement = orders.place(greedy, NOW);

        Order failed = Order.refused(greedy, OrderRefusal.LIMIT_EXCEEDED, NOW);
        assertThat(placement).isEqualTo(new Refused(failed));
        assertThat(orders.find(greedy.id())).contains(failed);
        assertOnlyTheFailedOrderWasAdded(sale, before, greedy, OrderRefusal.LIMIT_EXCEEDED);
        assertThat(orders.place(greedy, NOW.plusSeconds(5))).isEqualTo(new AlreadyPlaced(failed));
        assertOnlyTheFailedOrderWasAdded(sale, before, greedy, OrderRefusal.LIMIT_EXCEEDED);
    }

    @Test
    void givenTooFewUnitsOfTheSecondSku_whenPlaced_thenRefusedFailedStoredAndTheFirstSkuUntouched() {
        ActivityId sale = sale(new PurchaseLimit(5), item("a-first", 10, null), item("b-second", 3, null));
        orders.place(reservation(sale, "buyer-1", line("b-second", 2)), NOW);
        Rows before = rows(sale);
        Reservation late = reservation(sale, "buyer-2", line("a-first", 2), line("b-second", 2));

        OrderPlacement placement = orders.place(late, NOW);

        Order failed = Order.refused(late, OrderRefusal.OUT_OF_STOCK, NOW);
        assertThat(placement).isEqualTo(new Refused(failed));
        assertOnlyTheFailedOrderWasAdded(sale, before, late, OrderRefusal.OUT_OF_STOCK);
        assertThat(figures.soldBySku(sale)).isEqualTo(units("a-first", 0, "b-second", 2));
        assertThat(orders.place(late, NOW.plusSeconds(5))).isEqualTo(new AlreadyPlaced(failed));
        assertOnlyTheFailedOrderWasAdded(sale, before, late, OrderRefusal.OUT_OF_STOCK);
    }

    @Test
    void givenAnUnknownSkuBesideAKnownOne_whenPlaced_thenRefusedAsUnknownItemAndNothingIsTaken() {
        ActivityId sale = sale(PurchaseLimit.ONE, item("known", 10, null));
        Rows before = rows(sale);
        Reservation reservation = reservation(sale, "buyer-1", line("known", 1), line("unknown", 1));

        OrderPlacement placement = orders.place(reservation, NOW);

        assertThat(placement).isEqualTo(new Refused(Order.refused(reservation, OrderRefusal.UNKNOWN_ITEM, NOW)));
        assertOnlyTheFailedOrderWasAdded(sale, before, reservation, OrderRefusal.UNKNOWN_ITEM);
        assertThat(orders.place(reservation, NOW)).isInstanceOf(AlreadyPlaced.class);
    }

    @Test
    void givenAnUnknownActivity_whenPlaced_thenRefusedAsUnknownItemAndStoredAsFailed() {
        ActivityId nowhere = new ActivityId("missing-" + token().substring(0, 12));
        Reservation reservation = reservation(nowhere, "buyer-1", line("sku", 1));

        OrderPlacement placement = orders.place(reservation, NOW);

        Order failed = Order.refused(reservation, OrderRefusal.UNKNOWN_ITEM, NOW);
        assertThat(placement).isEqualTo(new Refused(failed));
        assertThat(orders.find(reservation.id())).contains(failed);
        assertThat(rows(nowhere)).isEqualTo(new Rows(List.of(reservation.id() + " FAILED UNKNOWN_ITEM"),
                List.of(reservation.id() + " 0 sku 1"), List.of(), List.of(), List.of()));
        assertThat(orders.place(reservation, NOW)).isEqualTo(new AlreadyPlaced(failed));
    }

    @Test
    void givenAnOrderForARequest_whenFoundByTheRequest_thenItIsThatOrderWithItsLinesWhateverIdAsks() {
        ActivityId sale = sale(new PurchaseLimit(5), item("a", 10, null), item("b", 10, null));
        Reservation first = reservation(sale, "buyer-1", line("a", 2), line("b", 1));
        Reservation other = reservation(sale, "buyer-2", line("a", 1));
        orders.placeAll(List.of(first, other), NOW);

        assertThat(orders.findByRequest(sale, first.buyerId(), first.requestId())).get()
                .isEqualTo(orders.find(first.id()).orElseThrow())
                .satisfies(order -> assertThat(order.lines()).isEqualTo(first.lines()));
        assertThat(orders.findByRequest(sale, other.buyerId(), first.requestId())).as("another buyer's request")
                .isEmpty();
        assertThat(orders.findByRequest(sale, first.buyerId(), new RequestId("req-never-sent"))).isEmpty();
        assertThat(orders.findByRequest(new ActivityId("no-sale"), first.buyerId(), first.requestId())).isEmpty();
    }

    @Test
    void givenAnUnknownReservation_whenFound_thenItIsEmpty() {
        assertThat(orders.find(ReservationId.of(new ActivityId("no-sale"), token()))).isEmpty();
    }

    @RepeatedTest(10)
    void givenFiftyUnitsAndTwoHundredBuyers_whenThirtyTwoThreadsRace_thenExactlyFiftyOrdersAndTheBooksBalance(
            RepetitionInfo repetition) throws Exception {
        ActivityId sale = sale(PurchaseLimit.ONE, item("hot", 50, null), item("capped", 1000, 3));
        List<Reservation> crowd = new ArrayList<>();
        for (int buyer = 0; buyer < 200; buyer++) {
            crowd.add(reservation(sale, "buyer-" + buyer, line("hot", 1)));
        }
        List<Reservation> greedy = new ArrayList<>();
        for (int attempt = 0; attempt < 12; attempt++) {
            greedy.add(reservation(sale, "greedy", line("capped", 1)));
        }
        List<Reservation> all = new ArrayList<>(crowd);
        all.addAll(greedy);
        Collections.shuffle(all, new Random(repetition.getCurrentRepetition()));

        long started = System.nanoTime();
        Map<ReservationId, OrderPlacement> results = placeConcurrently(all, 32);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        System.out.printf("[orders-race] round %d: %d reservations on 32 threads in %d ms%n",
                repetition.getCurrentRepetition(), all.size(), millis);

        assertThat(outcomes(crowd, results)).isEqualTo(Map.of("Placed", 50L, "Refused OUT_OF_STOCK", 150L));
        assertThat(outcomes(greedy, results)).isEqualTo(Map.of("Placed", 3L, "Refused LIMIT_EXCEEDED", 9L));
        assertThat(figures.soldBySku(sale)).isEqualTo(units("capped", 3, "hot", 50));
        assertThat(figures.stockFlowBySku(sale)).isEqualTo(figures.soldBySku(sale));
        assertThat(figures.orderedUnitsBySku(sale)).isEqualTo(figures.soldBySku(sale));
        assertThat(figures.orderCountByStatus(sale))
                .isEqualTo(Map.of(ReservationStatus.ORDERED, 53L, ReservationStatus.FAILED, 159L));
        assertThat(jdbc().queryForList("""
                SELECT CONCAT(failure_reason, ' ', COUNT(*)) FROM purchase_order
                WHERE activity_id = ? AND status = 'FAILED' GROUP BY failure_reason ORDER BY failure_reason""",
                String.class, sale.value())).containsExactly("LIMIT_EXCEEDED 9", "OUT_OF_STOCK 150");
        assertThat(purchasesOf(sale)).containsEntry("greedy capped", 3L).hasSize(51)
                .allSatisfy((key, units) -> assertThat(units).isEqualTo(key.endsWith(" hot") ? 1L : 3L));
        for (Reservation reservation : all) {
            assertThat(orders.find(reservation.id())).contains(results.get(reservation.id()).order());
        }
    }

    @RepeatedTest(5)
    void givenMultiSkuOrdersListingSkusInAnyOrder_whenTheyRace_thenNoDeadlockAndEveryBuyerStaysInTheLimit(
            RepetitionInfo repetition) throws Exception {
        List<String> skus = List.of("x", "y", "z");
        ActivityId sale = sale(PurchaseLimit.ONE, item("x", 30, null), item("y", 30, null), item("z", 30, null));
        Random random = new Random(1000L + repetition.getCurrentRepetition());
        List<Reservation> all = new ArrayList<>();
        for (int buyer = 0; buyer < 40; buyer++) {
            for (int attempt = 0; attempt < 2; attempt++) {
                List<String> picked = new ArrayList<>(skus);
                Collections.shuffle(picked, random);
                ReservationLine[] lines = picked.subList(0, 2 + random.nextInt(2)).stream()
                        .map(sku -> line(sku, 1)).toArray(ReservationLine[]::new);
                all.add(reservation(sale, "buyer-" + buyer, lines));
            }
        }

        Map<ReservationId, OrderPlacement> results = placeConcurrently(all, 32);

        Map<SkuId, Long> sold = figures.soldBySku(sale);
        assertThat(sold.values()).allSatisfy(units -> assertThat(units).isBetween(0L, 30L));
        assertThat(sold.values().stream().mapToLong(Long::longValue).sum()).isPositive();
        assertThat(figures.stockFlowBySku(sale)).isEqualTo(sold);
        assertThat(figures.orderedUnitsBySku(sale)).isEqualTo(sold);
        assertThat(results.values()).allSatisfy(placement -> assertThat(placement).isNotInstanceOf(AlreadyPlaced.class));
        Map<String, Long> heldByOrders = new HashMap<>();
        for (OrderPlacement placement : results.values()) {
            if (placement instanceof Placed placed) {
                placed.order().lines().forEach(line -> heldByOrders.merge(
                        placed.order().buyerId() + " " + line.skuId(), (long) line.quantity(), Long::sum));
            }
        }
        Map<String, Long> purchases = purchasesOf(sale);
        assertThat(purchases).isEqualTo(heldByOrders);
        assertThat(purchases.values()).allSatisfy(units -> assertThat(units).isEqualTo(1L));
    }

    @RepeatedTest(10)
    void givenOneReservation_whenEightThreadsDeliverItAtOnce_thenExactlyOneOrderIsPlaced() throws Exception {
        ActivityId sale = sale(new PurchaseLimit(2), item("a", 10, null), item("b", 10, null));
        Reservation reservation = reservation(sale, "buyer-1", line("b", 2), line("a", 1));

        AtomicInteger retries = new AtomicInteger();

        List<OrderPlacement> results = deliverConcurrently(reservation, 8, retries);

        assertThat(retries).as("lock failures while one delivery commits").hasValue(0);
        assertThat(results).filteredOn(Placed.class::isInstance).hasSize(1);
        assertThat(results).filteredOn(AlreadyPlaced.class::isInstance).hasSize(7);
        assertThat(results).extracting(OrderPlacement::order).containsOnly(results.getFirst().order());
        assertThat(rows(sale).orders()).containsExactly(reservation.id() + " ORDERED null");
        assertThat(figures.soldBySku(sale)).isEqualTo(units("a", 1, "b", 2));
        assertThat(figures.stockFlowBySku(sale)).isEqualTo(units("a", 1, "b", 2));
    }

    @RepeatedTest(5)
    void givenOneRefusedReservation_whenEightThreadsDeliverItAndRetryLockFailures_thenExactlyOneIsRefused()
            throws Exception {
        ActivityId sale = sale(PurchaseLimit.ONE, item("a", 10, null), item("b", 0, null));
        Reservation reservation = reservation(sale, "buyer-1", line("a", 1), line("b", 1));
        AtomicInteger retries = new AtomicInteger();

        List<OrderPlacement> results = deliverConcurrently(reservation, 8, retries);

        System.out.printf("[orders-race] refused reservation by 8 threads: %d lock failures retried%n", retries.get());
        assertThat(results).filteredOn(Refused.class::isInstance).hasSize(1);
        assertThat(results).filteredOn(AlreadyPlaced.class::isInstance).hasSize(7);
        assertThat(results).extracting(OrderPlacement::order)
                .containsOnly(Order.refused(reservation, OrderRefusal.OUT_OF_STOCK, NOW));
        assertThat(rows(sale)).isEqualTo(new Rows(List.of(reservation.id() + " FAILED OUT_OF_STOCK"),
                List.of(reservation.id() + " 0 a 1", reservation.id() + " 1 b 1"),
                List.of(), List.of(), List.of("a 0", "b 0")));
    }

    @Test
    void givenTheItemRowLockedElsewhere_whenPlaced_thenTheLockTimeoutReachesTheCallerAndARedeliveryPlacesIt()
            throws Exception {
        ActivityId sale = sale(PurchaseLimit.ONE, item("sku", 10, null));
        Reservation reservation = reservation(sale, "buyer-1", line("sku", 1));
        Rows before = rows(sale);

        try (Connection blocker = lockItemRow(sale, "sku")) {
            // The application's name for it (ADR 53): the pipeline retries it, the HTTP API answers 503 BUSY.
            assertThatThrownBy(() -> orders.place(reservation, NOW))
                    .isInstanceOf(StoreContentionException.class)
                    .hasCauseInstanceOf(PessimisticLockingFailureException.class);
            // The server undid only the timed-out statement; the adapter must have rolled back the rest.
            assertThat(rows(sale)).isEqualTo(before);
            blocker.rollback();
        }

        assertThat(orders.place(reservation, NOW)).isInstanceOf(Placed.class);
        assertThat(figures.soldBySku(sale)).isEqualTo(units("sku", 1));
    }

    @Test
    void givenADeliveryStillSettling_whenTheSameReservationArrives_thenItWaitsForItAndFindsTheSettledOrder()
            throws Exception {
        ActivityId sale = sale(PurchaseLimit.ONE, item("sku", 10, null));
        Reservation reservation = reservation(sale, "buyer-1", line("sku", 1));

        Future<OrderPlacement> first;
        Future<OrderPlacement> second;
        try (ExecutorService pool = Executors.newFixedThreadPool(2); Connection blocker = lockItemRow(sale, "sku")) {
            first = pool.submit(() -> orders.place(reservation, NOW));
            threadsWaitingForLock(sale, 1);
            // The first has not committed, so the second finds no order, goes on and queues behind the first's locks.
            second = pool.submit(() -> orders.place(reservation, NOW.plusSeconds(1)));
            threadsWaitingForLock(sale, 2);
            blocker.rollback();

            assertThat(first.get(30, TimeUnit.SECONDS)).isInstanceOf(Placed.class);
            assertThat(second.get(30, TimeUnit.SECONDS)).isEqualTo(new AlreadyPlaced(first.get().order()));
        }
        assertThat(rows(sale).orders()).containsExactly(reservation.id() + " ORDERED null");
        assertThat(figures.soldBySku(sale)).isEqualTo(units("sku", 1));
    }

    @Test
    void givenTheConnectionKilledMidTransaction_whenPlaced_thenTheErrorReachesTheCallerAndNothingIsKept()
            throws Exception {
        ActivityId sale = sale(PurchaseLimit.ONE, item("sku", 10, null));
        Reservation reservation = reservation(sale, "buyer-1", line("sku", 1));
        Rows before = rows(sale);

        try (ExecutorService pool = Executors.newSingleThreadExecutor(); Connection blocker = lockItemRow(sale, "sku")) {
            Future<OrderPlacement> placing = pool.submit(() -> orders.place(reservation, NOW));
            long waiting = threadsWaitingForLock(sale, 1).getFirst();
            try (PreparedStatement kill = blocker.prepareStatement("KILL CONNECTION " + waiting)) {
                kill.execute();
            }

            // Rolling back on the dead connection fails as well, and Spring then reports the rollback failure: a lost
            // connection, so an outage to the caller (defect 13), with Spring's report as its cause.
            assertThatThrownBy(() -> placing.get(30, TimeUnit.SECONDS)).cause()
                    .isInstanceOf(StoreUnavailableException.class)
                    .cause().isInstanceOfAny(DataAccessException.class, TransactionException.class)
                    .isNotInstanceOf(DuplicateKeyException.class);
            blocker.rollback();
        }

        assertThat(rows(sale)).isEqualTo(before);
        assertThat(orders.place(reservation, NOW)).isInstanceOf(Placed.class);
    }

    @Test
    void givenAnActivityWithoutOrders_whenFiguresAreRead_thenEverySkuShowsZeroAndNoStatusIsCounted() {
        ActivityId sale = sale(PurchaseLimit.ONE, item("b", 4, null), item("a", 2, null));

        assertThat(figures.soldBySku(sale)).isEqualTo(units("a", 0, "b", 0));
        assertThat(figures.soldBySku(sale).keySet()).containsExactly(new SkuId("a"), new SkuId("b"));
        assertThat(figures.stockFlowBySku(sale)).isEqualTo(units("a", 0, "b", 0));
        assertThat(figures.orderedUnitsBySku(sale)).isEqualTo(units("a", 0, "b", 0));
        assertThat(figures.orderCountByStatus(sale)).isEmpty();
    }

    private void assertOnlyTheFailedOrderWasAdded(ActivityId sale, Rows before, Reservation refused,
                                                  OrderRefusal reason) {
        Rows after = rows(sale);
        List<String> expectedOrders = new ArrayList<>(before.orders());
        expectedOrders.add(refused.id() + " FAILED " + reason);
        assertThat(after.orders()).containsExactlyInAnyOrderElementsOf(expectedOrders);
        assertThat(after.lines()).containsAll(before.lines()).hasSize(before.lines().size() + refused.lines().size());
        assertThat(after.purchases()).isEqualTo(before.purchases());
        assertThat(after.flows()).isEqualTo(before.flows());
        assertThat(after.sold()).isEqualTo(before.sold());
    }

    private Map<ReservationId, OrderPlacement> placeConcurrently(List<Reservation> reservations, int threads)
            throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        Map<ReservationId, Future<OrderPlacement>> futures = new HashMap<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (Reservation reservation : reservations) {
                futures.put(reservation.id(), pool.submit(() -> {
                    start.await();
                    return orders.place(reservation, NOW);
                }));
            }
            start.countDown();
            Map<ReservationId, OrderPlacement> results = new HashMap<>();
            for (var future : futures.entrySet()) {
                results.put(future.getKey(), future.getValue().get(2, TimeUnit.MINUTES));
            }
            return results;
        }
    }

    /** Delivers one reservation from several threads at once; lock failures are retried, as the consumer does. */
    private List<OrderPlacement> deliverConcurrently(Reservation reservation, int threads, AtomicInteger retries)
            throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<OrderPlacement>> futures = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (int thread = 0; thread < threads; thread++) {
                futures.add(pool.submit(() -> {
                    start.await();
                    for (int attempt = 1; ; attempt++) {
                        try {
                            return orders.place(reservation, NOW);
                        } catch (StoreContentionException e) {
                            if (attempt == 10) {
                                throw e;
                            }
                            retries.incrementAndGet();
                        }
                    }
                }));
            }
            start.countDown();
            List<OrderPlacement> results = new ArrayList<>();
            for (Future<OrderPlacement> future : futures) {
                results.add(future.get(1, TimeUnit.MINUTES));
            }
            return results;
        }
    }

    private static Map<String, Long> outcomes(List<Reservation> reservations, Map<ReservationId, OrderPlacement> results) {
        return reservations.stream().map(reservation -> results.get(reservation.id()))
                .collect(Collectors.groupingBy(placement -> switch (placement) {
                    case Placed placed -> "Placed";
                    case Refused refused -> "Refused " + refused.order().failureReason();
                    case AlreadyPlaced already -> "AlreadyPlaced";
                    case OrderPlacement.CancelledBeforeOrder cancelled -> "CancelledBeforeOrder";
                }, Collectors.counting()));
    }

    /** A connection holding the item row's lock in an open transaction. */
    private Connection lockItemRow(ActivityId sale, String sku) throws Exception {
        Connection connection = dataSource.getConnection();
        connection.setAutoCommit(false);
        try (PreparedStatement lock = connection.prepareStatement(
                "SELECT sold FROM activity_item WHERE activity_id = ? AND sku_id = ? FOR UPDATE")) {
            lock.setString(1, sale.value());
            lock.setString(2, sku);
            lock.executeQuery().close();
        }
        return connection;
    }

    /** Waits until this many transactions working on the activity wait for a lock; returns their server threads. */
    private List<Long> threadsWaitingForLock(ActivityId sale, int count) throws InterruptedException {
        List<Map<String, Object>> transactions = List.of();
        for (int poll = 0; poll < 15; poll++) {
            transactions = jdbc().queryForList("""
                    SELECT trx_mysql_thread_id AS thread, trx_state AS state, trx_query AS query
                    FROM information_schema.innodb_trx""");
            List<Long> waiting = transactions.stream()
                    .filter(trx -> "LOCK WAIT".equals(trx.get("state")))
                    .filter(trx -> String.valueOf(trx.get("query")).contains(sale.value()))
                    .map(trx -> ((Number) trx.get("thread")).longValue())
                    .toList();
            if (waiting.size() == count) {
                return waiting;
            }
            // The server refreshes this table only when it was not read for 100 ms.
            Thread.sleep(150);
        }
        throw new AssertionError(count + " transactions of " + sale + " should wait for a lock: " + transactions);
    }

    private Rows rows(ActivityId sale) {
        String id = sale.value();
        return new Rows(
                jdbc().queryForList("""
                        SELECT CONCAT_WS(' ', reservation_id, status, COALESCE(failure_reason, 'null'))
                        FROM purchase_order WHERE activity_id = ? ORDER BY reservation_id""", String.class, id),
                jdbc().queryForList("""
                        SELECT CONCAT_WS(' ', l.reservation_id, l.line_index, l.sku_id, l.quantity)
                        FROM purchase_order_line l JOIN purchase_order o ON o.reservation_id = l.reservation_id
                        WHERE o.activity_id = ? ORDER BY l.reservation_id, l.line_index""", String.class, id),
                jdbc().queryForList("""
                        SELECT CONCAT_WS(' ', buyer_id, sku_id, quantity) FROM buyer_purchase
                        WHERE activity_id = ? AND quantity > 0 ORDER BY buyer_id, sku_id""", String.class, id),
                jdbc().queryForList("""
                        SELECT CONCAT_WS(' ', reservation_id, sku_id, kind, quantity) FROM stock_flow
                        WHERE activity_id = ? ORDER BY reservation_id, sku_id, kind""", String.class, id),
                jdbc().queryForList("""
                        SELECT CONCAT_WS(' ', sku_id, sold) FROM activity_item
                        WHERE activity_id = ? ORDER BY sku_id""", String.class, id));
    }

    /** Units held per "buyer sku"; rows with 0 units are left out. */
    private Map<String, Long> purchasesOf(ActivityId sale) {
        Map<String, Long> purchases = new HashMap<>();
        jdbc().query("SELECT buyer_id, sku_id, quantity FROM buyer_purchase WHERE activity_id = ? AND quantity > 0",
                row -> {
                    purchases.put(row.getString("buyer_id") + " " + row.getString("sku_id"), row.getLong("quantity"));
                }, sale.value());
        return purchases;
    }

    private JdbcTemplate jdbc() {
        return new JdbcTemplate(dataSource);
    }

    private ActivityId sale(PurchaseLimit limit, ActivityItem... items) {
        ActivityId id = new ActivityId("ord-" + token().substring(0, 16));
        activities.add(new Activity(id, "Orders " + id, Instant.parse("2026-12-01T09:00:00Z"),
                Instant.parse("2026-12-01T12:00:00Z"), limit, Duration.ofMinutes(15), List.of(items)));
        return id;
    }

    private static ActivityItem item(String sku, long stock, Integer perUserLimit) {
        return new ActivityItem(new SkuId(sku), stock, perUserLimit, 1);
    }

    private static Reservation reservation(ActivityId sale, String buyer, ReservationLine... lines) {
        return new Reservation(ReservationId.of(sale, token()), sale, new BuyerId(buyer),
                new RequestId("req-" + token().substring(0, 8)), List.of(lines), ReservationStatus.RESERVED,
                RESERVED_AT);
    }

    /** A reservation the hot store made again for the same request, as it does once its request index is lost. */
    /** {@code reservation_alias} of the sale: "alias -> order's reservation buyer created_at". */
    private List<String> aliasRows(ActivityId sale) {
        return jdbc().queryForList("""
                SELECT CONCAT(reservation_id, ' -> ', order_reservation_id, ' ', buyer_id, ' ', CAST(created_at AS CHAR))
                FROM reservation_alias WHERE activity_id = ? ORDER BY reservation_id""", String.class, sale.value());
    }

    private static Reservation sameRequest(Reservation earlier) {
        return new Reservation(ReservationId.of(earlier.activityId(), token()), earlier.activityId(), earlier.buyerId(),
                earlier.requestId(), earlier.lines(), ReservationStatus.RESERVED, RESERVED_AT);
    }

    private static ReservationLine line(String sku, int quantity) {
        return new ReservationLine(new SkuId(sku), quantity);
    }

    private static Map<SkuId, Long> units(Object... skuThenUnits) {
        Map<SkuId, Long> units = new HashMap<>();
        for (int i = 0; i < skuThenUnits.length; i += 2) {
            units.put(new SkuId((String) skuThenUnits[i]), ((Number) skuThenUnits[i + 1]).longValue());
        }
        return units;
    }

    private static String token() {
        return UUID.randomUUID().toString().replace("-", "");
    }

    /**
     * The rows one activity owns in every order table, each as readable text in a fixed order. Purchases list
     * only units held: the adapter creates a buyer's missing rows with 0 units before it settles an order.
     */
    private record Rows(List<String> orders, List<String> lines, List<String> purchases, List<String> flows,
                        List<String> sold) {
    }
}
