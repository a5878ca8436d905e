package io.flashsale.adapter.mysql;

import io.flashsale.application.order.model.CancellationResult;
import io.flashsale.application.order.model.PaymentResult;
import io.flashsale.application.order.port.out.OrderPipelineMetricsPort;
import io.flashsale.application.order.port.out.OrderPlacementPort;
import io.flashsale.application.order.service.CancellationService;
import io.flashsale.application.order.service.ExpiryService;
import io.flashsale.application.order.service.OrderService;
import io.flashsale.application.order.service.PaymentService;
import io.flashsale.application.order.service.PendingRestoreService;
import io.flashsale.application.reference.InMemoryStockReservations;
import io.flashsale.application.reservation.model.ReservationView;
import io.flashsale.application.reservation.service.ReservationService;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.stock.SkuStock;
import io.flashsale.domain.stock.StockLedger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole lifecycle across both stores: the real MySQL repository as the database of record, and the reference
 * in-memory stock store as the hot store (the contract suite holds the Redis scripts to exactly its atomic moves).
 * Interleavings that matter are forced with latches inside the order pipeline; races run on real threads.
 */
@SpringBootTest(classes = MysqlAdapterTestApplication.class)
class OrderLifecycleFlowIT extends LifecycleDatabase {

    private static final Duration PAYMENT_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration LATCH_WAIT = Duration.ofSeconds(20);
    private static final OrderPipelineMetricsPort NO_METRICS = new OrderPipelineMetricsPort() {
        @Override
        public void recorded(OrderPlacement placement) {
        }

        @Override
        public void relayed(int reservations) {
        }
    };

    @Autowired
    MysqlOrderRepository orders;

    @Autowired
    MysqlActivityRepository activities;

    @Autowired
    MysqlSalesFigures figures;

    @Autowired
    DataSource dataSource;

    private final Instant era = TestEras.next();
    private final TestClock clock = new TestClock(era.plusSeconds(1));
    private final InMemoryStockReservations hot = new InMemoryStockReservations();
    private OrderService pipeline;
    private CancellationService cancellations;
    private PaymentService payments;
    private ExpiryService expiry;
    private PendingRestoreService sweep;
    private ReservationService reservations;

    @BeforeEach
    void wireTheServices() {
        pipeline = new OrderService(orders, orders, orders, hot, hot, NO_METRICS, clock);
        cancellations = new CancellationService(orders, orders, orders, hot, hot, clock);
        payments = new PaymentService(orders, orders, hot, hot, clock);
        expiry = new ExpiryService(orders, orders, hot, clock);
        sweep = new PendingRestoreService(orders, hot, clock);
        reservations = new ReservationService(hot, hot, activities, orders, () -> token().substring(0, 20), clock);
    }

    private Books books() {
        return new Books(dataSource);
    }

    // ---- a cancellation while the reservation is still on its way to MySQL ----

    @Test
    void givenTheBuyerCancelsBetweenThePipelinesLookAndItsCommit_thenTheNewOrderEndsCancelledAndEachStoreGivesBackOnce()
            throws Exception {
        ActivityId sale = sale(item("a", 1));
        Reservation reservation = reserve(sale, "alice", line("a", 1));
        CountDownLatch looked = new CountDownLatch(1);
        CountDownLatch cancelled = new CountDownLatch(1);
        OrderService pausedPipeline = new OrderService(pausingPlace(args -> {
            looked.countDown();
            await(cancelled);
        }, args -> {
        }), orders, orders, hot, hot, NO_METRICS, clock);

        try (ExecutorService consumer = Executors.newSingleThreadExecutor()) {
            Future<OrderPlacement> placing = consumer.submit(() -> pausedPipeline.placeOrder(reservation));
            await(looked);
            assertThat(cancellations.cancel(buyer("alice"), reservation.id())).isInstanceOf(CancellationResult.Cancelled.class);
            cancelled.countDown();

            assertThat(placing.get(30, TimeUnit.SECONDS)).isInstanceOf(OrderPlacement.Placed.class);
        }

        Order order = orders.find(reservation.id()).orElseThrow();
        assertThat(order.status()).isEqualTo(ReservationStatus.CANCELLED);
        assertThat(order.wasOrdered()).as("it was an order for a moment").isTrue();
        assertThat(books().flows(reservation.id())).containsExactly("a RESTORE 1", "a SALE 1");
        assertThat(books().restoreDueAt(reservation.id())).as("the hot store owes nothing").isNull();
        assertBothStoresAgree(sale, Map.of("a", 0L));
        assertThat(hot.stock(sale).orElseThrow()).containsExactly(new SkuStock(sku("a"), StockLedger.of(1)));
        assertThat(hot.findReservation(reservation.id()).orElseThrow().status()).isEqualTo(ReservationStatus.CANCELLED);

        assertThat(pipeline.placeOrder(reservation)).as("a redelivery changes nothing")
                .isInstanceOf(OrderPlacement.AlreadyPlaced.class);
        assertBothStoresAgree(sale, Map.of("a", 0L));
        assertThat(books().restoreFlows(sale)).isEqualTo(1);
        assertThat(place(reserve(sale, "bob", line("a", 1)))).isInstanceOf(OrderPlacement.Placed.class);
        assertBothStoresAgree(sale, Map.of("a", 1L));
    }

    @Test
    void givenTheBuyerCancelsAfterTheCommitBeforeTheHotStoreConfirms_thenMySqlDecidesAndTheSweepFinishesTheHotStore()
            throws Exception {
        ActivityId sale = sale(item("a", 2));
        Reservation reservation = reserve(sale, "alice", line("a", 2));
        CountDownLatch committed = new CountDownLatch(1);
        CountDownLatch cancelled = new CountDownLatch(1);
        OrderService pausedPipeline = new OrderService(pausingPlace(args -> {
        }, args -> {
            committed.countDown();
            await(cancelled);
        }), orders, orders, hot, hot, NO_METRICS, clock);

        try (ExecutorService consumer = Executors.newSingleThreadExecutor()) {
            Future<OrderPlacement> placing = consumer.submit(() -> pausedPipeline.placeOrder(reservation));
            await(committed);
            assertThat(cancellations.cancel(buyer("alice"), reservation.id())).isInstanceOf(CancellationResult.Cancelled.class);
            cancelled.countDown();
            assertThat(placing.get(30, TimeUnit.SECONDS)).isInstanceOf(OrderPlacement.Placed.class);
        }

        assertThat(books().status(reservation.id())).isEqualTo("CANCELLED");
        assertThat(books().sold(sale)).containsExactly("a 0");
        assertThat(hot.stock(sale).orElseThrow()).as("confirmed after the cancellation: still sold here")
                .containsExactly(new SkuStock(sku("a"), new StockLedger(2, 0, 2)));
        assertThat(sweep.completePendingRestores(10)).as("postponed, not due yet").isZero();

        clock.advance(Duration.ofSeconds(3));
        assertThat(sweep.completePendingRestores(10)).isEqualTo(1);

        assertThat(hot.findReservation(reservation.id())).as("a restored order keeps no record (ADR 71)").isEmpty();
        assertThat(books().restoreDueAt(reservation.id())).isNull();
        assertBothStoresAgree(sale, Map.of("a", 0L));
        assertThat(sweep.completePendingRestores(10)).isZero();
        assertThat(hot.stock(sale).orElseThrow()).containsExactly(new SkuStock(sku("a"), StockLedger.of(2)));
    }

    @Test
    void givenTheBuyerCancelsBeforeTheDelivery_thenItIsRecordedCancelledTakesNoStockAndNeverBecomesAnOrder() {
        ActivityId sale = sale(item("a", 1));
        Reservation reservation = reserve(sale, "alice", line("a", 1));
        clock.advance(Duration.ofMillis(250));
        Instant cancelledAt = clock.instant();

        assertThat(cancellations.cancel(buyer("alice"), reservation.id()))
                .isEqualTo(new CancellationResult.Cancelled(reservation.transitionTo(ReservationStatus.CANCELLED)));
        clock.advance(Duration.ofSeconds(1));
        OrderPlacement placement = place(reservation);

        assertThat(placement).isEqualTo(new OrderPlacement.CancelledBeforeOrder(
                Order.cancelledBeforeOrder(reservation, cancelledAt, clock.instant())));
        assertThat(place(reservation)).isInstanceOf(OrderPlacement.AlreadyPlaced.class);
        assertThat(books().flows(reservation.id())).isEmpty();
        assertBothStoresAgree(sale, Map.of("a", 0L));
        assertThat(cancellations.cancel(buyer("alice"), reservation.id())).isInstanceOf(CancellationResult.AlreadyCancelled.class);
        assertThat(payments.pay(buyer("alice"), reservation.id()))
                .isEqualTo(new PaymentResult.NotPayable(ReservationStatus.CANCELLED));
        ReservationView view = reservations.view(buyer("alice"), reservation.id()).orElseThrow();
        assertThat(view.reservation().status()).isEqualTo(ReservationStatus.CANCELLED);
        assertThat(view.times().cancelledAt()).isEqualTo(cancelledAt);
        assertThat(view.ordered()).isFalse();
    }

    @Test
    void givenAPaymentWhileTheHotStoreHasNotConfirmed_thenItIsRefusedAsNotYetOrderedAndSucceedsOnceConfirmed()
            throws Exception {
        ActivityId sale = sale(item("a", 1));
        Reservation reservation = reserve(sale, "alice", line("a", 1));
        CountDownLatch committed = new CountDownLatch(1);
        CountDownLatch paid = new CountDownLatch(1);
        OrderService pausedPipeline = new OrderService(pausingPlace(args -> {
        }, args -> {
            committed.countDown();
            await(paid);
        }), orders, orders, hot, hot, NO_METRICS, clock);

        try (ExecutorService consumer = Executors.newSingleThreadExecutor()) {
            Future<OrderPlacement> placing = consumer.submit(() -> pausedPipeline.placeOrder(reservation));
            await(committed);
            assertThat(payments.pay(buyer("alice"), reservation.id()))
                    .isEqualTo(new PaymentResult.NotPayable(ReservationStatus.RESERVED));
            paid.countDown();
            placing.get(30, TimeUnit.SECONDS);
        }

        assertThat(payments.pay(buyer("alice"), reservation.id())).isInstanceOf(PaymentResult.Paid.class);
        assertThat(payments.pay(buyer("alice"), reservation.id())).isInstanceOf(PaymentResult.AlreadyPaid.class);
        assertThat(hot.findReservation(reservation.id())).as("an order keeps no record (ADR 71)").isEmpty();
        assertBothStoresAgree(sale, Map.of("a", 1L));
    }

    @Test
    void givenACancellationReleasedInTheHotStoreAndAPaymentBeforeThePipelineCatchesUp_thenThePaymentIsRefusedAndTheOrderEndsCancelled()
            throws Exception {
        ActivityId sale = sale(item("a", 1));
        Reservation reservation = reserve(sale, "alice", line("a", 1));
        CountDownLatch looked = new CountDownLatch(1);
        CountDownLatch cancelled = new CountDownLatch(1);
        CountDownLatch committed = new CountDownLatch(1);
        CountDownLatch paid = new CountDownLatch(1);
        OrderService pausedPipeline = new OrderService(pausingPlace(args -> {
            looked.countDown();
            await(cancelled);
        }, args -> {
            committed.countDown();
            await(paid);
        }), orders, orders, hot, hot, NO_METRICS, clock);

        try (ExecutorService consumer = Executors.newSingleThreadExecutor()) {
            Future<OrderPlacement> placing = consumer.submit(() -> pausedPipeline.placeOrder(reservation));
            await(looked);
            assertThat(cancellations.cancel(buyer("alice"), reservation.id())).isInstanceOf(CancellationResult.Cancelled.class);
            cancelled.countDown();
            await(committed);
            // MySQL says ORDERED right now, yet the hot store already gave the unit back.
            assertThat(payments.pay(buyer("alice"), reservation.id()))
                    .isEqualTo(new PaymentResult.NotPayable(ReservationStatus.CANCELLED));
            paid.countDown();
            placing.get(30, TimeUnit.SECONDS);
        }

        assertThat(books().status(reservation.id())).isEqualTo("CANCELLED");
        assertThat(payments.pay(buyer("alice"), reservation.id()))
                .isEqualTo(new PaymentResult.NotPayable(ReservationStatus.CANCELLED));
        assertBothStoresAgree(sale, Map.of("a", 0L));
    }

    // ---- restored units sell again at once ----

    @Test
    void givenTenSoldToTenBuyers_whenThreeCancelAndTwoExpire_thenFiveNewBuyersGetThemTheSixthIsRefusedAndTheStoresAgree() {
        ActivityId sale = sale(item("a", 10));
        List<Reservation> first = new ArrayList<>();
        for (int buyer = 0; buyer < 10; buyer++) {
            Reservation reservation = reserve(sale, "first-" + buyer, line("a", 1));
            assertThat(place(reservation)).isInstanceOf(OrderPlacement.Placed.class);
            first.add(reservation);
        }
        assertThat(hot.reserve(request(sale, "late", line("a", 1)))).isEqualTo(new ReservationOutcome.SoldOut(sku("a")));
        for (int i = 0; i < 3; i++) {
            assertThat(cancellations.cancel(buyer("first-" + i), first.get(i).id()))
                    .isInstanceOf(CancellationResult.Cancelled.class);
        }
        for (int i = 5; i < 10; i++) {
            assertThat(payments.pay(buyer("first-" + i), first.get(i).id())).isInstanceOf(PaymentResult.Paid.class);
        }
        clock.advance(PAYMENT_TIMEOUT.plusSeconds(1));

        assertThat(expiry.expireDue(100)).isEqualTo(2);

        for (int buyer = 0; buyer < 5; buyer++) {
            assertThat(place(reserve(sale, "second-" + buyer, line("a", 1)))).isInstanceOf(OrderPlacement.Placed.class);
        }
        assertThat(hot.reserve(request(sale, "second-5", line("a", 1)))).isEqualTo(new ReservationOutcome.SoldOut(sku("a")));
        assertThat(books().statuses(sale)).containsExactly("CANCELLED 3", "EXPIRED 2", "ORDERED 5", "PAID 5");
        assertThat(books().restoreFlows(sale)).isEqualTo(5);
        assertBothStoresAgree(sale, Map.of("a", 10L));
        for (int i = 0; i < 5; i++) {
            assertThat(hot.findReservation(first.get(i).id())).isEmpty();
            assertThat(payments.pay(buyer("first-" + i), first.get(i).id()))
                    .isEqualTo(new PaymentResult.NotPayable(i < 3 ? ReservationStatus.CANCELLED : ReservationStatus.EXPIRED));
        }
        ReservationView expired = reservations.view(buyer("first-3"), first.get(3).id()).orElseThrow();
        assertThat(expired.reservation().status()).isEqualTo(ReservationStatus.EXPIRED);
        assertThat(expired.times().expiredAt()).isEqualTo(clock.instant());
        assertThat(expired.times().orderedAt()).isNotNull();
        assertThat(expiry.expireDue(100)).isZero();
    }

    // ---- the race, across both stores ----

    @RepeatedTest(20)
    void givenOneDueOrder_whenTheBuyerCancelsAndPaysWhileTheExpiryRuns_thenOneOutcomeAndBothStoresAgreeAfterTheSweep(
            RepetitionInfo repetition) throws Exception {
        ActivityId sale = sale(item("a", 3), new ActivityItem(sku("seg"), 4, null, 3));
        Reservation contested = reserve(sale, "alice", line("a", 1), line("seg", 2));
        assertThat(place(contested)).isInstanceOf(OrderPlacement.Placed.class);
        assertThat(place(reserve(sale, "bob", line("seg", 1)))).isInstanceOf(OrderPlacement.Placed.class);
        clock.advance(PAYMENT_TIMEOUT.plusSeconds(5));
        BuyerId alice = buyer("alice");
        List<Callable<String>> contenders = new ArrayList<>(List.of(
                () -> cancellations.cancel(alice, contested.id()) instanceof CancellationResult.Cancelled ? "CANCELLED" : "",
                () -> cancellations.cancel(alice, contested.id()) instanceof CancellationResult.Cancelled ? "CANCELLED" : "",
                () -> payments.pay(alice, contested.id()) instanceof PaymentResult.Paid ? "PAID" : "",
                () -> payments.pay(alice, contested.id()) instanceof PaymentResult.Paid ? "PAID" : "",
                () -> expiry.expireDue(10) == 2 ? "EXPIRED" : ""));
        Collections.shuffle(contenders);

        List<String> winners = race(contenders).stream().filter(won -> !won.isEmpty()).toList();
        clock.advance(Duration.ofSeconds(5));
        sweep.completePendingRestores(100);

        System.out.printf("[lifecycle-flow-race] round %d: won by %s%n", repetition.getCurrentRepetition(), winners);
        assertThat(winners).hasSize(1);
        String winner = winners.getFirst();
        boolean paid = winner.equals("PAID");
        assertThat(books().status(contested.id())).isEqualTo(winner);
        assertThat(hot.findReservation(contested.id())).as("settled, closed or not: no record (ADR 71)").isEmpty();
        assertThat(books().status(orderOf(sale, "bob"))).as("bob's order was due as well").isEqualTo("EXPIRED");
        assertThat(books().restoreFlows(sale)).isEqualTo(paid ? 1 : 3);
        assertThat(books().restoreDueAt(contested.id())).isNull();
        assertBothStoresAgree(sale, paid ? Map.of("a", 1L, "seg", 2L) : Map.of("a", 0L, "seg", 0L));
    }

    // ---- helpers ----

    private void assertBothStoresAgree(ActivityId sale, Map<String, Long> sold) {
        Map<SkuId, Long> expected = new HashMap<>();
        sold.forEach((sku, units) -> expected.put(sku(sku), units));
        assertThat(figures.soldBySku(sale)).as("sold in MySQL").isEqualTo(expected);
        assertThat(figures.stockFlowBySku(sale)).as("stock flow in MySQL").isEqualTo(expected);
        assertThat(figures.orderedUnitsBySku(sale)).as("units of holding orders in MySQL").isEqualTo(expected);
        Map<SkuId, Long> hotSold = new HashMap<>();
        for (SkuStock stock : hot.stock(sale).orElseThrow()) {
            assertThat(stock.ledger().reserved()).as("nothing left reserved in the hot store").isZero();
            hotSold.put(stock.skuId(), stock.ledger().sold());
        }
        assertThat(hotSold).as("sold in the hot store").isEqualTo(expected);
        Map<String, Long> hotHoldings = new HashMap<>();
        for (String buyer : books().jdbc().queryForList(
                "SELECT DISTINCT buyer_id FROM purchase_order WHERE activity_id = ?", String.class, sale.value())) {
            hot.holdings(sale, buyer(buyer)).forEach((sku, units) -> hotHoldings.put(buyer + " " + sku.value(), units));
        }
        assertThat(hotHoldings).as("each buyer's holdings: hot store vs purchase rows").isEqualTo(books().purchases(sale));
    }

    private ReservationId orderOf(ActivityId sale, String buyer) {
        return new ReservationId(books().jdbc().queryForObject(
                "SELECT reservation_id FROM purchase_order WHERE activity_id = ? AND buyer_id = ?",
                String.class, sale.value(), buyer));
    }

    /** The real repository, with a pause before and after {@code place}: where a delivery can be overtaken. */
    private OrderPlacementPort pausingPlace(Consumer<Object[]> beforePlace, Consumer<Object[]> afterPlace) {
        return (OrderPlacementPort) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[]{OrderPlacementPort.class},
                (proxy, method, args) -> {
                    boolean placing = method.getName().equals("place");
                    if (placing) {
                        beforePlace.accept(args);
                    }
                    try {
                        Object result = method.invoke(orders, args);
                        if (placing) {
                            afterPlace.accept(args);
                        }
                        return result;
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(LATCH_WAIT.toSeconds(), TimeUnit.SECONDS)) {
                throw new AssertionError("the other side of the interleaving never arrived");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static List<String> race(List<Callable<String>> contenders) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<String>> answers = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(contenders.size())) {
            for (Callable<String> contender : contenders) {
                answers.add(pool.submit(() -> {
                    start.await();
                    return contender.call();
                }));
            }
            start.countDown();
            List<String> results = new ArrayList<>();
            for (Future<String> answer : answers) {
                results.add(answer.get(1, TimeUnit.MINUTES));
            }
            return results;
        }
    }

    private OrderPlacement place(Reservation reservation) {
        return pipeline.placeOrder(reservation);
    }

    private Reservation reserve(ActivityId sale, String buyer, ReservationLine... lines) {
        ReservationOutcome outcome = hot.reserve(request(sale, buyer, lines));
        assertThat(outcome).isInstanceOf(ReservationOutcome.Reserved.class);
        return ((ReservationOutcome.Reserved) outcome).reservation();
    }

    private ReservationRequest request(ActivityId sale, String buyer, ReservationLine... lines) {
        return new ReservationRequest(ReservationId.of(sale, token().substring(0, 24)), buyer(buyer),
                new RequestId("req-" + token().substring(0, 8)), List.of(lines), clock.instant());
    }

    private ActivityId sale(ActivityItem... items) {
        ActivityId id = new ActivityId("flow-" + token().substring(0, 16));
        Activity activity = new Activity(id, "Flow " + id, era, era.plus(Duration.ofHours(6)), new PurchaseLimit(3),
                PAYMENT_TIMEOUT, List.of(items));
        activities.add(activity);
        hot.warmUp(activity);
        return id;
    }

    private static ActivityItem item(String sku, long stock) {
        return new ActivityItem(new SkuId(sku), stock, null, 1);
    }

    private static ReservationLine line(String sku, int quantity) {
        return new ReservationLine(new SkuId(sku), quantity);
    }

    private static SkuId sku(String sku) {
        return new SkuId(sku);
    }

    private static BuyerId buyer(String buyer) {
        return new BuyerId(buyer);
    }

    private static String token() {
        return UUID.randomUUID().toString().replace("-", "");
    }
}
