package io.flashsale.adapter.mysql;

import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.order.OrderRefusal;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The order lifecycle in MySQL against the real server: conditional transitions out of ORDERED that one caller wins,
 * the winner's restore in the same transaction, exactly once, and the expiry's FOR UPDATE SKIP LOCKED claim, raced on
 * real threads. Each test lives in an era of its own ({@link TestEras}), so expiries never see other tests' orders.
 */
@SpringBootTest(classes = MysqlAdapterTestApplication.class)
class MysqlOrderLifecycleIT extends LifecycleDatabase {

    private static final Duration TIMEOUT = Duration.ofMinutes(1);

    @Autowired
    MysqlOrderRepository orders;

    @Autowired
    MysqlActivityRepository activities;

    @Autowired
    MysqlSalesFigures figures;

    @Autowired
    DataSource dataSource;

    @Autowired
    MeterRegistry meters;

    private final Instant era = TestEras.next();
    private final Instant placedAt = era.plusSeconds(1);
    /**
     * When the buyer got the answer: the reservations' instant, from which the payment deadline counts. These tests
     * place at once; the one that places minutes later shows the deadline is not counted from the placement.
     */
    private final Instant reservedAt = placedAt;

    private Books books() {
        return new Books(dataSource);
    }

    // ---- payment ----

    @Test
    void givenAnOrderedOrder_whenPaid_thenPaidAtItsMomentAndAgainIsRefusedAndNoStockMoves() {
        ActivityId sale = sale(PurchaseLimit.ONE, item("a", 5));
        Reservation reservation = placed(sale, "buyer-1", line("a", 1));
        Instant paidAt = placedAt.plusMillis(30_123);

        assertThat(orders.markPaid(reservation.id(), paidAt.plusNanos(999))).isTrue();

        assertThat(orders.markPaid(reservation.id(), paidAt.plusSeconds(1))).isFalse();
        Order paid = orders.find(reservation.id()).orElseThrow();
        assertThat(paid.status()).isEqualTo(ReservationStatus.PAID);
        assertThat(paid.closedAt()).isEqualTo(paidAt);
        assertThat(paid.orderedAt()).isEqualTo(placedAt);
        assertThat(books().times(reservation.id())).containsEntry("paid_at", paidAt).containsEntry("updated_at", paidAt)
                .containsEntry("hot_store_restore_due_at", null);
        assertThat(books().sold(sale)).containsExactly("a 1");
        assertThat(books().flows(reservation.id())).containsExactly("a SALE 1");
        assertThat(orders.closeWithRestore(reservation.id(), ReservationStatus.CANCELLED, paidAt)).isFalse();
        assertThat(expireOneDue(reservedAt.plus(TIMEOUT).plusSeconds(1))).isEmpty();
        assertThat(books().sold(sale)).containsExactly("a 1");
    }

    @Test
    void givenAnOrderPastItsPaymentDeadlineAndNoExpiryPass_whenPaid_thenRefusedAndItStaysOrderedForTheExpiry() {
        ActivityId sale = sale(PurchaseLimit.ONE, item("a", 5));
        Reservation late = placed(sale, "buyer-1", line("a", 1));
        Reservation onTime = placed(sale, "buyer-2", line("a", 1));
        Instant deadline = reservedAt.plus(TIMEOUT);

        assertThat(orders.markPaid(late.id(), deadline)).isFalse();
        assertThat(orders.markPaid(late.id(), deadline.plusSeconds(30))).isFalse();
        assertThat(orders.markPaid(onTime.id(), deadline.minusMillis(1))).isTrue();

        assertThat(orders.find(late.id()).orElseThrow().status()).isEqualTo(ReservationStatus.ORDERED);
        assertThat(orders.find(onTime.id()).orElseThrow().status()).isEqualTo(ReservationStatus.PAID);
        assertThat(expireOneDue(deadline)).contains(late.id());
        assertThat(books().sold(sale)).containsExactly("a 1");
    }

    @Test
    void givenDueOrdersOfSeveralBuyersAndSkus_whenExpiredInOneBatch_thenEachExpiresOnceWithItsUnitsBackGrouped() {
        ActivityId sale = sale(new PurchaseLimit(3), item("a", 10), item("b", 10));
        Reservation one = placed(sale, "buyer-1", line("a", 2), line("b", 1));
        Reservation two = placed(sale, "buyer-1", line("a", 1));
        Reservation three = placed(sale, "buyer-2", line("b", 3));
        Reservation paid = placed(sale, "buyer-3", line("a", 1));
        orders.markPaid(paid.id(), placedAt.plusSeconds(1));
        Instant due = reservedAt.plus(TIMEOUT).plusSeconds(1);

        List<PendingRestore> first = orders.expireDue(due, 2);
        List<PendingRestore> second = orders.expireDue(due, 10);

        assertThat(first).extracting(PendingRestore::reservationId).hasSize(2);
        assertThat(second).extracting(PendingRestore::reservationId).hasSize(1);
        assertThat(orders.expireDue(due, 10)).isEmpty();
        Set<ReservationId> expired = new HashSet<>();
        first.forEach(p -> expired.add(p.reservationId()));
        second.forEach(p -> expired.add(p.reservationId()));
        assertThat(expired).containsExactlyInAnyOrder(one.id(), two.id(), three.id());
        assertThat(books().sold(sale)).containsExactly("a 1", "b 0");
        assertThat(books().purchases(sale)).isEqualTo(Map.of("buyer-3 a", 1L));
        assertThat(books().flows(one.id())).containsExactly("a RESTORE 2", "a SALE 2", "b RESTORE 1", "b SALE 1");
        assertThat(books().times(three.id())).containsEntry("expired_at", due).containsEntry("hot_store_restore_due_at",
                due);
        assertThat(orders.dueHotStoreRestores(due, 10)).hasSize(3);
        orders.hotStoreRestoredAll(List.of(one.id(), two.id()));
        assertThat(orders.dueHotStoreRestores(due, 10)).extracting(PendingRestore::reservationId)
                .containsExactly(three.id());
    }

    // ---- cancellation and expiry give the stock back once ----

    @Test
    void givenAnOrderedOrder_whenCancelled_thenSoldPurchasesAndARestoreFlowPerLineComeBackInOneGoAndTheHotStoreOwesIt() {
        ActivityId sale = sale(new PurchaseLimit(3), item("b", 5), item("a", 5));
        Reservation bystander = placed(sale, "buyer-2", line("a", 1));
        Reservation reservation = placed(sale, "buyer-1", line("b", 2), line("a", 3));
        Instant cancelledAt = placedAt.plusSeconds(20);

        assertThat(orders.closeWithRestore(reservation.id(), ReservationStatus.CANCELLED, cancelledAt)).isTrue();

        assertThat(books().sold(sale)).containsExactly("a 1", "b 0");
        assertThat(books().purchases(sale)).isEqualTo(Map.of("buyer-2 a", 1L));
        assertThat(books().flows(reservation.id())).containsExactly("a RESTORE 3", "a SALE 3", "b RESTORE 2", "b SALE 2");
        assertThat(books().flows(bystander.id())).containsExactly("a SALE 1");
        assertThat(books().times(reservation.id())).containsEntry("cancelled_at", cancelledAt)
                .containsEntry("hot_store_restore_due_at", cancelledAt).containsEntry("ordered_at", placedAt);
        assertThat(figures.stockFlowBySku(sale)).isEqualTo(figures.soldBySku(sale));
        assertThat(figures.orderedUnitsBySku(sale)).isEqualTo(figures.soldBySku(sale));
        Order cancelled = orders.find(reservation.id()).orElseThrow();
        assertThat(cancelled.status()).isEqualTo(ReservationStatus.CANCELLED);
        assertThat(cancelled.wasOrdered()).isTrue();
        assertThat(cancelled.times().cancelledAt()).isEqualTo(cancelledAt);
    }

    @Test
    void givenACancelledOrder_whenClosedOrPaidAgainAnyWay_thenNothingMovesTwice() {
        ActivityId sale = sale(new PurchaseLimit(2), item("a", 5));
        Reservation reservation = placed(sale, "buyer-1", line("a", 2));
        orders.closeWithRestore(reservation.id(), ReservationStatus.CANCELLED, placedAt.plusSeconds(5));

        assertThat(orders.closeWithRestore(reservation.id(), ReservationStatus.CANCELLED, placedAt.plusSeconds(6))).isFalse();
        assertThat(orders.closeWithRestore(reservation.id(), ReservationStatus.EXPIRED, placedAt.plusSeconds(6))).isFalse();
        assertThat(orders.cancelReleased(reservation.id(), placedAt.plusSeconds(6))).isFalse();
        assertThat(orders.markPaid(reservation.id(), placedAt.plusSeconds(6))).isFalse();

        assertThat(books().sold(sale)).containsExactly("a 0");
        assertThat(books().restoreFlows(sale)).isEqualTo(1);
        assertThat(books().times(reservation.id())).containsEntry("cancelled_at", placedAt.plusSeconds(5));
    }

    @Test
    void givenFailedUnknownOrCancelledBeforeOrder_whenClosed_thenNothingHappens() {
        ActivityId sale = sale(PurchaseLimit.ONE, item("a", 0), item("b", 5));
        Reservation failed = reservation(sale, "buyer-1", line("a", 1));
        assertThat(orders.place(failed, placedAt)).isInstanceOf(OrderPlacement.Refused.class);
        Reservation neverOrdered = reservation(sale, "buyer-2", line("b", 1));
        orders.recordCancelledBeforeOrder(neverOrdered, placedAt, placedAt);
        ReservationId unknown = ReservationId.of(sale, "nope");

        for (ReservationId id : List.of(failed.id(), neverOrdered.id(), unknown)) {
            assertThat(orders.closeWithRestore(id, ReservationStatus.CANCELLED, placedAt)).as(id.value()).isFalse();
            assertThat(orders.closeWithRestore(id, ReservationStatus.EXPIRED, placedAt)).as(id.value()).isFalse();
            assertThat(orders.cancelReleased(id, placedAt)).as(id.value()).isFalse();
            assertThat(orders.markPaid(id, placedAt)).as(id.value()).isFalse();
        }
        assertThat(books().restoreFlows(sale)).isZero();
        assertThat(books().sold(sale)).containsExactly("a 0", "b 0");
    }

    @Test
    void whenClosingToAStatusThatDoesNotGiveStockBack_thenRefusedAndTheOrderStaysOrdered() {
        ActivityId sale = sale(PurchaseLimit.ONE, item("a", 5));
        Reservation reservation = placed(sale, "buyer-1", line("a", 1));

        assertThatThrownBy(() -> orders.closeWithRestore(reservation.id(), ReservationStatus.PAID, placedAt))
                .isInstanceOf(IllegalArgumentException.class);

        assertThat(books().status(reservation.id())).isEqualTo("ORDERED");
    }

    @Test
    void givenAnOrderReleasedInTheHotStore_whenCancelledAsReleased_thenTheDatabaseRestoresAndTheHotStoreOwesNothing() {
        ActivityId sale = sale(PurchaseLimit.ONE, item("a", 5));
        Reservation reservation = placed(sale, "buyer-1", line("a", 1));

        assertThat(orders.cancelReleased(reservation.id(), placedAt.minusMillis(200))).isTrue();

        assertThat(books().sold(sale)).containsExactly("a 0");
        assertThat(books().flows(reservation.id())).containsExactly("a RESTORE 1", "a SALE 1");
        assertThat(books().times(reservation.id())).containsEntry("cancelled_at", placedAt.minusMillis(200))
                .containsEntry("hot_store_restore_due_at", null);
        assertThat(orders.dueHotStoreRestores(placedAt.plus(Duration.ofDays(1)), 100))
                .extracting(PendingRestore::reservationId).doesNotContain(reservation.id());
    }

    @Test
    void givenTheBooksCannotHoldARestore_whenClosed_thenTheWholeTransactionRollsBackAndTheOrderStaysOrdered() {
        ActivityId sale = sale(PurchaseLimit.ONE, item("a", 5));
        Reservation reservation = placed(sale, "buyer-1", line("a", 1));
        books().jdbc().update("UPDATE activity_item SET sold = 0 WHERE activity_id = ?", sale.value());

        assertThatThrownBy(() -> orders.closeWithRestore(reservation.id(), ReservationStatus.CANCELLED, placedAt))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("fewer units are sold");

        assertThat(books().status(reservation.id())).isEqualTo("ORDERED");
        assertThat(books().purchases(sale)).isEqualTo(Map.of("buyer-1 a", 1L));
        assertThat(books().flows(reservation.id())).containsExactly("a SALE 1");
    }

    @Test
    void givenOrdersClosedEachWay_thenTheRestoredStockCounterCountsTheirCommittedUnitsOnceByReason() {
        ActivityId sale = sale(new PurchaseLimit(5), item("a", 20), item("b", 20), item("c", 5));
        Reservation cancelled = placed(sale, "buyer-1", line("a", 2), line("b", 1));
        Reservation released = placed(sale, "buyer-2", line("a", 1));
        Reservation expiredAlone = placed(sale, "buyer-3", line("b", 4));
        Reservation expiredInBatch = placed(sale, "buyer-4", line("a", 3));
        Reservation rolledBackFirst = placed(sale, "buyer-5", line("c", 1));
        double expiredBefore = restored("expired");
        double cancelledBefore = restored("cancelled");
        Instant due = placedAt.plus(TIMEOUT).plusSeconds(1);

        books().jdbc().update("UPDATE activity_item SET sold = 0 WHERE activity_id = ? AND sku_id = 'c'", sale.value());
        assertThatThrownBy(() -> orders.closeWithRestore(rolledBackFirst.id(), ReservationStatus.CANCELLED, placedAt))
                .isInstanceOf(IllegalStateException.class);
        books().jdbc().update("UPDATE activity_item SET sold = 1 WHERE activity_id = ? AND sku_id = 'c'", sale.value());
        assertThat(restored("cancelled")).as("a close rolled back counts nothing").isEqualTo(cancelledBefore);
        assertThat(orders.closeWithRestore(cancelled.id(), ReservationStatus.CANCELLED, placedAt.plusSeconds(1)))
                .isTrue();
        assertThat(orders.closeWithRestore(cancelled.id(), ReservationStatus.CANCELLED, placedAt.plusSeconds(2)))
                .isFalse();
        assertThat(orders.cancelReleased(released.id(), placedAt.plusSeconds(1))).isTrue();
        assertThat(expireOneDue(due)).isPresent();
        assertThat(orders.expireDue(due, 10)).hasSize(2);

        assertThat(restored("cancelled") - cancelledBefore).as("2 + 1 cancelled, 1 released").isEqualTo(4);
        assertThat(restored("expired") - expiredBefore).as("4 + 3 + 1, one alone, two in a batch").isEqualTo(8);
        assertThat(List.of(expiredAlone.id(), expiredInBatch.id(), rolledBackFirst.id()))
                .allSatisfy(id -> assertThat(books().status(id)).isEqualTo("EXPIRED"));
    }

    private double restored(String reason) {
        return meters.get(RestoredStock.RESTORED).tag(RestoredStock.REASON, reason).counter().count();
    }

    @Test
    void givenTheOnlyUnitCancelledThenExpired_thenEachTimeAnotherOrderTakesItAndTheFirstBuyerMayBuyAgain() {
        ActivityId sale = sale(PurchaseLimit.ONE, item("a", 1));
        Reservation first = placed(sale, "buyer-1", line("a", 1));
        assertThat(orders.place(reservation(sale, "buyer-2", line("a", 1)), placedAt))
                .isInstanceOf(OrderPlacement.Refused.class);

        orders.closeWithRestore(first.id(), ReservationStatus.CANCELLED, placedAt.plusSeconds(2));
        Reservation second = placed(sale, "buyer-3", line("a", 1));
        orders.closeWithRestore(second.id(), ReservationStatus.EXPIRED, placedAt.plusSeconds(3));
        placed(sale, "buyer-1", line("a", 1));

        assertThat(books().sold(sale)).containsExactly("a 1");
        assertThat(books().purchases(sale)).isEqualTo(Map.of("buyer-1 a", 1L));
        assertThat(figures.stockFlowBySku(sale)).isEqualTo(figures.soldBySku(sale));
    }

    // ---- cancelled before it was ordered ----

    @Test
    void givenACancelledReservation_whenRecorded_thenItIsACancelledOrderThatTookNoStockAndNoDeliveryCanPlaceIt() {
        ActivityId sale = sale(PurchaseLimit.ONE, item("a", 5));
        Reservation reservation = reservation(sale, "buyer-1", line("a", 1));
        Instant cancelledAt = placedAt.minusMillis(500);

        OrderPlacement recorded = orders.recordCancelledBeforeOrder(reservation, cancelledAt, placedAt);

        Order cancelled = Order.cancelledBeforeOrder(reservation, cancelledAt, placedAt);
        assertThat(recorded).isEqualTo(new OrderPlacement.CancelledBeforeOrder(cancelled));
        assertThat(orders.find(reservation.id())).contains(cancelled);
        assertThat(orders.place(reservation, placedAt.plusSeconds(1))).isEqualTo(new OrderPlacement.AlreadyPlaced(cancelled));
        assertThat(orders.recordCancelledBeforeOrder(reservation, cancelledAt, placedAt.plusSeconds(1)))
                .isEqualTo(new OrderPlacement.AlreadyPlaced(cancelled));
        assertThat(books().sold(sale)).containsExactly("a 0");
        assertThat(books().purchases(sale)).isEmpty();
        assertThat(books().flows(reservation.id())).isEmpty();
        assertThat(books().times(reservation.id())).containsEntry("ordered_at", null).containsEntry("payment_due_at", null)
                .containsEntry("cancelled_at", cancelledAt);
    }

    @Test
    void givenAnOrderPlacedFirst_whenRecordedAsCancelledBeforeOrder_thenThePlacedOrderStands() {
        ActivityId sale = sale(PurchaseLimit.ONE, item("a", 5));
        Reservation reservation = placed(sale, "buyer-1", line("a", 1));

        OrderPlacement recorded = orders.recordCancelledBeforeOrder(reservation, placedAt, placedAt.plusSeconds(1));

        assertThat(recorded).isEqualTo(new OrderPlacement.AlreadyPlaced(Order.placed(reservation, placedAt)));
        assertThat(books().status(reservation.id())).isEqualTo("ORDERED");
    }

    // ---- dead-lettered and not placed by its deadline (ADR 78) ----

    @Test
    void givenAReservationNotPlacedInTime_whenRecorded_thenItIsAFailedOrderThatTookNoStockAndNoReplayCanPlaceIt() {
        ActivityId sale = sale(PurchaseLimit.ONE, item("a", 5));
        Reservation reservation = reservation(sale, "buyer-1", line("a", 1));

        OrderPlacement recorded = orders.recordNotPlacedInTime(reservation, placedAt);

        Order failed = Order.refused(reservation, OrderRefusal.NOT_PLACED_IN_TIME, placedAt);
        assertThat(recorded).isEqualTo(new OrderPlacement.Refused(failed));
        assertThat(orders.find(reservation.id())).contains(failed);
        assertThat(orders.placeAll(List.of(reservation), placedAt.plusSeconds(1)))
                .containsExactly(new OrderPlacement.AlreadyPlaced(failed));
        assertThat(orders.recordNotPlacedInTime(reservation, placedAt.plusSeconds(2)))
                .isEqualTo(new OrderPlacement.AlreadyPlaced(failed));
        assertThat(books().sold(sale)).containsExactly("a 0");
        assertThat(books().purchases(sale)).isEmpty();
        assertThat(books().flows(reservation.id())).isEmpty();
    }

    @Test
    void givenAnOrderPlacedFirst_whenRecordedAsNotPlacedInTime_thenThePlacedOrderStands() {
        ActivityId sale = sale(PurchaseLimit.ONE, item("a", 5));
        Reservation reservation = placed(sale, "buyer-1", line("a", 1));

        OrderPlacement recorded = orders.recordNotPlacedInTime(reservation, placedAt.plusSeconds(1));

        assertThat(recorded).isEqualTo(new OrderPlacement.AlreadyPlaced(Order.placed(reservation, placedAt)));
        assertThat(books().status(reservation.id())).isEqualTo("ORDERED");
        assertThat(books().sold(sale)).containsExactly("a 1");
    }

    // ---- expiry ----

    @Test
    void givenAnOrderPlacedMinutesAfterTheBuyersAnswer_thenItsPaymentDeadlineIsTheAnswerPlusTheActivitysTimeout() {
        ActivityId sale = sale(Duration.ofSeconds(7), PurchaseLimit.ONE, item("a", 5));
        Reservation reservation = reservation(sale, "buyer-1", line("a", 1));
        Instant lagging = reservedAt.plus(Duration.ofMinutes(5));

        assertThat(orders.placeAll(List.of(reservation), lagging)).singleElement()
                .isInstanceOf(OrderPlacement.Placed.class);

        assertThat(books().times(reservation.id())).containsEntry("ordered_at", lagging)
                .containsEntry("payment_due_at", reservedAt.plusSeconds(7));
    }

    @Test
    void givenAnOrderPlacedOneByOne_thenItsPaymentDeadlineIsTheBuyersAnswerPlusTheActivitysTimeout() {
        ActivityId sale = sale(Duration.ofSeconds(7), PurchaseLimit.ONE, item("a", 5));
        Reservation reservation = placed(sale, "buyer-1", line("a", 1));

        assertThat(books().times(reservation.id())).containsEntry("payment_due_at", reservedAt.plusSeconds(7));
    }

    @Test
    void givenOrdersDueAtDifferentMoments_whenExpiring_thenOnlyThoseDueExpireOldestFirstWithTheirStock() {
        ActivityId sale = sale(Duration.ofSeconds(10), new PurchaseLimit(5), item("a", 10));
        Reservation late = answeredAt(placedAt.plusSeconds(5), reservation(sale, "buyer-late", line("a", 1)));
        Reservation early = reservation(sale, "buyer-early", line("a", 2));
        Reservation paid = reservation(sale, "buyer-paid", line("a", 1));
        orders.place(late, placedAt.plusSeconds(5));
        orders.place(early, placedAt);
        orders.place(paid, placedAt);
        orders.markPaid(paid.id(), placedAt.plusSeconds(1));
        Instant beforeAnyDeadline = placedAt.plusMillis(9_999);

        assertThat(expireOneDue(beforeAnyDeadline)).isEmpty();
        assertThat(expireOneDue(placedAt.plusSeconds(16))).contains(early.id());
        assertThat(expireOneDue(placedAt.plusSeconds(16))).contains(late.id());
        assertThat(expireOneDue(placedAt.plusSeconds(16))).isEmpty();

        assertThat(books().status(paid.id())).isEqualTo("PAID");
        assertThat(books().sold(sale)).containsExactly("a 1");
        assertThat(books().flows(early.id())).containsExactly("a RESTORE 2", "a SALE 2");
        assertThat(books().times(early.id())).containsEntry("expired_at", placedAt.plusSeconds(16))
                .containsEntry("hot_store_restore_due_at", placedAt.plusSeconds(16));
        assertThat(figures.stockFlowBySku(sale)).isEqualTo(figures.soldBySku(sale));
    }

    @Test
    void givenTheFirstDueOrderLockedByAnotherInstance_whenExpiring_thenItIsSkippedAtOnceAndTheNextDueOneExpires()
            throws Exception {
        ActivityId sale = sale(Duration.ofSeconds(1), PurchaseLimit.ONE, item("a", 10));
        Reservation first = reservation(sale, "buyer-1", line("a", 1));
        Reservation second = reservation(sale, "buyer-2", line("a", 1));
        orders.place(first, placedAt);
        orders.place(second, placedAt.plusMillis(1));
        Instant now = placedAt.plusSeconds(5);

        try (Connection otherInstance = dataSource.getConnection()) {
            otherInstance.setAutoCommit(false);
            try (PreparedStatement lock = otherInstance.prepareStatement(
                    "SELECT status FROM purchase_order WHERE reservation_id = ? FOR UPDATE")) {
                lock.setString(1, first.id().value());
                lock.executeQuery().close();
            }

            long started = System.nanoTime();
            assertThat(expireOneDue(now)).contains(second.id());
            assertThat(expireOneDue(now)).isEmpty();
            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .as("no lock wait: locked rows are skipped").isLessThan(Duration.ofSeconds(LOCK_WAIT_SECONDS - 1));
            otherInstance.rollback();
        }

        assertThat(expireOneDue(now)).contains(first.id());
        assertThat(books().sold(sale)).containsExactly("a 0");
    }

    @RepeatedTest(5)
    void givenSixtyDueOrders_whenThreeInstancesExpireAtOnce_thenEachIsExpiredByExactlyOneAndStockComesBackOnce(
            RepetitionInfo repetition) throws Exception {
        ActivityId one = sale(Duration.ofSeconds(1), new PurchaseLimit(2), item("a", 100), item("b", 100));
        ActivityId two = sale(Duration.ofSeconds(1), PurchaseLimit.ONE, item("a", 100));
        Set<ReservationId> due = new HashSet<>();
        for (int buyer = 0; buyer < 30; buyer++) {
            Reservation both = reservation(one, "buyer-" + buyer, line(buyer % 2 == 0 ? "a" : "b", 1),
                    line(buyer % 2 == 0 ? "b" : "a", 2));
            Reservation single = reservation(two, "buyer-" + buyer, line("a", 1));
            orders.place(both, placedAt.plusMillis(buyer));
            orders.place(single, placedAt.plusMillis(buyer));
            due.add(both.id());
            due.add(single.id());
        }
        Reservation notYet = answeredAt(placedAt.plusSeconds(60), reservation(one, "patient", line("a", 2)));
        orders.place(notYet, placedAt.plusSeconds(60));
        Instant now = placedAt.plusSeconds(30);

        List<List<ReservationId>> expiredByInstance = expireConcurrently(now, 3);

        List<ReservationId> all = expiredByInstance.stream().flatMap(List::stream).toList();
        System.out.printf("[expiry-race] round %d: 60 due orders expired by 3 instances as %s%n",
                repetition.getCurrentRepetition(), expiredByInstance.stream().map(List::size).toList());
        assertThat(all).hasSize(60).doesNotHaveDuplicates();
        assertThat(new HashSet<>(all)).isEqualTo(due);
        assertThat(books().statuses(one)).containsExactly("EXPIRED 30", "ORDERED 1");
        assertThat(books().statuses(two)).containsExactly("EXPIRED 30");
        assertThat(books().sold(one)).containsExactly("a 2", "b 0");
        assertThat(books().sold(two)).containsExactly("a 0");
        assertThat(books().restoreFlows(one)).isEqualTo(60);
        assertThat(books().restoreFlows(two)).isEqualTo(30);
        assertThat(books().purchases(one)).isEqualTo(Map.of("patient a", 2L));
        assertThat(books().purchases(two)).isEmpty();
        assertThat(figures.stockFlowBySku(one)).isEqualTo(figures.soldBySku(one));
        assertThat(figures.stockFlowBySku(two)).isEqualTo(figures.soldBySku(two));
    }

    // ---- the race: cancel, expire and pay at once on one order ----

    @RepeatedTest(25)
    void givenOneDueOrder_whenCancelsExpiryAndPaymentsRaceOnRealThreads_thenExactlyOneWinsAndStockComesBackAtMostOnce(
            RepetitionInfo repetition) throws Exception {
        ActivityId sale = sale(Duration.ofSeconds(1), new PurchaseLimit(3), item("a", 10), item("b", 10));
        Reservation bystander = placed(sale, "buyer-2", line("a", 1));
        orders.markPaid(bystander.id(), placedAt);
        Reservation contested = placed(sale, "buyer-1", line("b", 2), line("a", 3));
        Instant now = placedAt.plusSeconds(5);
        List<Callable<String>> contenders = new ArrayList<>(List.of(
                () -> orders.closeWithRestore(contested.id(), ReservationStatus.CANCELLED, now) ? "CANCELLED" : "",
                () -> orders.closeWithRestore(contested.id(), ReservationStatus.CANCELLED, now) ? "CANCELLED" : "",
                () -> expireOneDue(now).map(id -> id.equals(contested.id()) ? "EXPIRED" : "OTHER " + id)
                        .orElse(""),
                () -> orders.markPaid(contested.id(), now) ? "PAID" : "",
                () -> orders.markPaid(contested.id(), now) ? "PAID" : ""));
        Collections.shuffle(contenders);

        List<String> winners = race(contenders).stream().filter(won -> !won.isEmpty()).toList();

        System.out.printf("[lifecycle-race] round %d: won by %s%n", repetition.getCurrentRepetition(), winners);
        assertThat(winners).hasSize(1);
        String winner = winners.getFirst();
        assertThat(books().status(contested.id())).isEqualTo(winner);
        boolean restored = !winner.equals("PAID");
        assertThat(books().restoreFlows(sale)).isEqualTo(restored ? 2 : 0);
        assertThat(books().flows(contested.id())).containsExactlyElementsOf(restored
                ? List.of("a RESTORE 3", "a SALE 3", "b RESTORE 2", "b SALE 2") : List.of("a SALE 3", "b SALE 2"));
        assertThat(books().sold(sale)).containsExactlyElementsOf(restored ? List.of("a 1", "b 0") : List.of("a 4", "b 2"));
        assertThat(books().purchases(sale)).isEqualTo(restored ? Map.of("buyer-2 a", 1L)
                : Map.of("buyer-2 a", 1L, "buyer-1 a", 3L, "buyer-1 b", 2L));
        assertThat(figures.stockFlowBySku(sale)).isEqualTo(figures.soldBySku(sale));
        assertThat(figures.orderedUnitsBySku(sale)).isEqualTo(figures.soldBySku(sale));
        assertThat(books().restoreDueAt(contested.id())).isEqualTo(restored ? now : null);
    }

    // ---- the hot store's due restores ----

    @Test
    void givenClosedOrders_thenTheirHotStoreRestoresAreDueUntilDoneAndAPostponedOneWaitsItsTurn() {
        ActivityId sale = sale(PurchaseLimit.ONE, item("a", 5));
        Reservation cancelled = placed(sale, "buyer-1", line("a", 1));
        Reservation expired = placed(sale, "buyer-2", line("a", 1));
        Reservation done = placed(sale, "buyer-3", line("a", 1));
        orders.closeWithRestore(cancelled.id(), ReservationStatus.CANCELLED, placedAt.plusSeconds(1));
        orders.closeWithRestore(expired.id(), ReservationStatus.EXPIRED, placedAt.plusSeconds(2));
        orders.closeWithRestore(done.id(), ReservationStatus.CANCELLED, placedAt.plusSeconds(3));
        orders.hotStoreRestored(done.id());

        assertThat(orders.dueHotStoreRestores(placedAt.plusSeconds(1), 10))
                .containsExactly(PendingRestore.of(cancelled, ReservationStatus.CANCELLED));
        assertThat(orders.dueHotStoreRestores(placedAt.plusSeconds(10), 10)).containsExactly(
                PendingRestore.of(cancelled, ReservationStatus.CANCELLED),
                PendingRestore.of(expired, ReservationStatus.EXPIRED));
        assertThat(orders.dueHotStoreRestores(placedAt.plusSeconds(10), 1)).hasSize(1);

        orders.postponeHotStoreRestore(cancelled.id(), placedAt.plusSeconds(20));
        orders.postponeHotStoreRestore(done.id(), placedAt.plusSeconds(20));

        assertThat(orders.dueHotStoreRestores(placedAt.plusSeconds(10), 10))
                .containsExactly(PendingRestore.of(expired, ReservationStatus.EXPIRED));
        assertThat(orders.dueHotStoreRestores(placedAt.plusSeconds(20), 10)).containsExactly(
                PendingRestore.of(expired, ReservationStatus.EXPIRED),
                PendingRestore.of(cancelled, ReservationStatus.CANCELLED));
        assertThat(books().restoreDueAt(done.id())).as("a finished restore stays finished").isNull();
    }

    // ---- helpers ----

    /** Every contender starts at the same moment on its own thread; returns their answers. */
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

    /** The expiry's production path with a batch of one: the order it expired, if any was due. */
    private Optional<ReservationId> expireOneDue(Instant now) {
        return orders.expireDue(now, 1).stream().map(PendingRestore::reservationId).findFirst();
    }

    /** Instances expiring until nothing is due; returns what each one expired. */
    private List<List<ReservationId>> expireConcurrently(Instant now, int instances) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<List<ReservationId>>> passes = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(instances)) {
            for (int instance = 0; instance < instances; instance++) {
                passes.add(pool.submit(() -> {
                    start.await();
                    List<ReservationId> expired = new ArrayList<>();
                    for (Optional<ReservationId> next = expireOneDue(now); next.isPresent();
                         next = expireOneDue(now)) {
                        expired.add(next.get());
                    }
                    return expired;
                }));
            }
            start.countDown();
            List<List<ReservationId>> results = new ArrayList<>();
            for (Future<List<ReservationId>> pass : passes) {
                results.add(pass.get(2, TimeUnit.MINUTES));
            }
            return results;
        }
    }

    private Reservation placed(ActivityId sale, String buyer, ReservationLine... lines) {
        Reservation reservation = reservation(sale, buyer, lines);
        assertThat(orders.place(reservation, placedAt)).isInstanceOf(OrderPlacement.Placed.class);
        return reservation;
    }

    private ActivityId sale(PurchaseLimit limit, ActivityItem... items) {
        return sale(TIMEOUT, limit, items);
    }

    private ActivityId sale(Duration paymentTimeout, PurchaseLimit limit, ActivityItem... items) {
        ActivityId id = new ActivityId("life-" + token().substring(0, 16));
        activities.add(new Activity(id, "Lifecycle " + id, era.minus(Duration.ofHours(1)), era.plus(Duration.ofHours(6)),
                limit, paymentTimeout, List.of(items)));
        return id;
    }

    private Reservation reservation(ActivityId sale, String buyer, ReservationLine... lines) {
        return new Reservation(ReservationId.of(sale, token()), sale, new BuyerId(buyer),
                new RequestId("req-" + token().substring(0, 8)), List.of(lines), ReservationStatus.RESERVED, reservedAt);
    }

    /** The reservation as answered to its buyer at {@code reservedAt}: its payment deadline counts from then. */
    private static Reservation answeredAt(Instant reservedAt, Reservation reservation) {
        return new Reservation(reservation.id(), reservation.activityId(), reservation.buyerId(),
                reservation.requestId(), reservation.lines(), reservation.status(), reservedAt);
    }

    private static ActivityItem item(String sku, long stock) {
        return new ActivityItem(new SkuId(sku), stock, null, 1);
    }

    private static ReservationLine line(String sku, int quantity) {
        return new ReservationLine(new SkuId(sku), quantity);
    }

    private static String token() {
        return UUID.randomUUID().toString().replace("-", "");
    }
}
