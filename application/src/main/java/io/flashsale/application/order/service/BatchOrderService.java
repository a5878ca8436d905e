package io.flashsale.application.order.service;

import io.flashsale.application.order.model.OrderBatchFailedException;
import io.flashsale.application.order.port.in.PlaceOrderBatchUseCase;
import io.flashsale.application.order.port.out.HotStoreSettlementPort.HeldStatus;
import io.flashsale.application.order.port.out.HotStoreSettlementPort;
import io.flashsale.application.order.port.out.OrderPipelineMetricsPort;
import io.flashsale.application.order.port.out.OrderPlacementPort;
import io.flashsale.application.order.port.out.OrderTransitionsPort;
import io.flashsale.application.order.port.out.RestoreQueuePort;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a batch of delivered reservations into orders with a fixed number of round trips: one hot-store read per
 * activity, the database's batch placement (one transaction), one hot-store script per activity that confirms the
 * placed reservations and fails the refused ones (their units back at once, exactly once), as {@link OrderService}
 * does for one. Only redeliveries of orders that were closed since (paid, cancelled, expired) take a call of their own.
 *
 * <p>The database decides first and is never undone by the hot store: a reservation the buyer cancelled before the
 * batch is recorded as cancelled; one cancelled between that look and the commit is found when the hot store refuses
 * to confirm it, and the database then cancels the fresh order and gives back its own units only.
 */
public class BatchOrderService implements PlaceOrderBatchUseCase {

    private final OrderPlacementPort orders;
    private final OrderTransitionsPort transitions;
    private final HotStoreSettlementPort hotStore;
    private final HeldReservationsPort heldReservations;
    private final OrderPipelineMetricsPort metrics;
    private final OrderService single;
    private final Clock clock;
    private final OrdersGiveWay giveWay;

    public BatchOrderService(OrderPlacementPort orders, OrderTransitionsPort transitions,
                             RestoreQueuePort restoreQueue, HotStoreSettlementPort hotStore,
                             HeldReservationsPort heldReservations, ReservationTransitionsPort reservations,
                             OrderPipelineMetricsPort metrics, Clock clock) {
        this(orders, transitions, restoreQueue, hotStore, heldReservations, reservations, metrics, clock,
             OrdersGiveWay.never());
    }

    /** @param giveWay holds each batch back while this instance's buyers queue for its CPU (ADR 65) */
    public BatchOrderService(OrderPlacementPort orders, OrderTransitionsPort transitions,
                             RestoreQueuePort restoreQueue, HotStoreSettlementPort hotStore,
                             HeldReservationsPort heldReservations, ReservationTransitionsPort reservations,
                             OrderPipelineMetricsPort metrics, Clock clock, OrdersGiveWay giveWay) {
        this.giveWay = giveWay;
        this.orders = orders;
        this.transitions = transitions;
        this.hotStore = hotStore;
        this.heldReservations = heldReservations;
        this.metrics = metrics;
        this.single = new OrderService(orders, transitions, restoreQueue, heldReservations, reservations, metrics,
                                       clock);
        this.clock = clock;
    }

    @Override
    public List<OrderPlacement> placeOrders(List<Reservation> batch) {
        if (batch.isEmpty()) {
            return List.of();
        }
        Duration heldBack = giveWay.awaitTurn(oldestReservedAt(batch));
        if (heldBack.isPositive()) {
            metrics.gaveWay(heldBack);
        }
        Map<ReservationId, Reservation> distinct = new LinkedHashMap<>();
        batch.forEach(reservation -> distinct.putIfAbsent(reservation.id(), reservation));
        Map<ActivityId, List<Reservation>> byActivity = byActivity(distinct.values());
        Instant now = clock.instant();

        Map<ReservationId, HeldStatus> held = new HashMap<>();
        byActivity.forEach((activity, reservations) -> held.putAll(hotStore.statuses(activity, ids(reservations))));
        Map<ReservationId, OrderPlacement> placements = new HashMap<>();
        List<Reservation> toPlace = new ArrayList<>();
        for (Reservation reservation : distinct.values()) {
            HeldStatus status = held.get(reservation.id());
            if (status != null && status.status() == ReservationStatus.CANCELLED) {
                Instant cancelledAt = status.cancelledAt() == null ? now : status.cancelledAt();
                placements.put(reservation.id(), orders.recordCancelledBeforeOrder(reservation, cancelledAt, now));
            } else {
                toPlace.add(reservation);
            }
        }
        List<OrderPlacement> placed = orders.placeAll(toPlace, now);
        for (int i = 0; i < toPlace.size(); i++) {
            placements.put(toPlace.get(i).id(), placed.get(i));
        }
        // Recorded before the hot store is told: the database's decision stands even if Redis is down now.
        distinct.keySet().forEach(id -> metrics.recorded(placements.get(id)));

        tellTheHotStore(byActivity, placements);
        catchUpClosedOrders(batch, placements);
        report(batch.size(), placements.values());

        Map<ReservationId, Integer> seen = new HashMap<>();
        List<OrderPlacement> answers = new ArrayList<>(batch.size());
        for (Reservation reservation : batch) {
            OrderPlacement placement = placements.get(reservation.id());
            // A second delivery inside the batch finds what the first one settled.
            boolean repeated = seen.merge(reservation.id(), 1, Integer::sum) > 1;
            answers.add(repeated ? new OrderPlacement.AlreadyPlaced(placement.order()) : placement);
        }
        return answers;
    }

    /** One script per activity: placed (and earlier ordered) ones confirmed, refused (and earlier failed) ones failed. */
    private void tellTheHotStore(Map<ActivityId, List<Reservation>> byActivity,
                                 Map<ReservationId, OrderPlacement> placements) {
        byActivity.forEach((activity, reservations) -> {
            List<ReservationId> confirm = new ArrayList<>();
            List<ReservationId> fail = new ArrayList<>();
            for (Reservation reservation : reservations) {
                OrderPlacement placement = placements.get(reservation.id());
                switch (placement) {
                    case OrderPlacement.Placed placedNow -> confirm.add(reservation.id());
                    case OrderPlacement.Refused refused -> fail.add(reservation.id());
                    case OrderPlacement.AlreadyPlaced already -> {
                        // The first delivery may have died between the commit and the hot store's update.
                        switch (already.order().status()) {
                            case ORDERED -> confirm.add(reservation.id());
                            case FAILED -> fail.add(reservation.id());
                            default -> {
                                // Closed since: caught up one by one, see catchUpClosedOrders.
                            }
                        }
                    }
                    case OrderPlacement.CancelledBeforeOrder cancelled -> {
                        // The hot store released the units itself when the buyer cancelled.
                    }
                }
            }
            Map<ReservationId, ReservationStatus> before = hotStore.settle(activity, confirm, fail);
            for (ReservationId id : confirm) {
                if (before.get(id) == ReservationStatus.CANCELLED) {
                    // Released by the buyer between our look and the commit. A no-op if the order left ORDERED since.
                    transitions.cancelReleased(id, heldReservations.cancelledAt(id).orElseGet(clock::instant));
                }
            }
        });
    }

    /** Redeliveries of orders that were paid, cancelled or expired since: rare, and each needs its own steps. */
    private void catchUpClosedOrders(List<Reservation> batch, Map<ReservationId, OrderPlacement> placements) {
        for (int index = 0; index < batch.size(); index++) {
            if (placements.get(batch.get(index).id()) instanceof OrderPlacement.AlreadyPlaced already
                    && isClosed(already.order())) {
                try {
                    single.catchUp(already.order());
                } catch (RuntimeException failed) {
                    throw new OrderBatchFailedException(index, failed);
                }
            }
        }
    }

    private static boolean isClosed(Order order) {
        return switch (order.status()) {
            case PAID, CANCELLED, EXPIRED -> true;
            case ORDERED, FAILED, RESERVED -> false;
        };
    }

    private void report(int deliveries, Iterable<OrderPlacement> placements) {
        metrics.batchSettled(deliveries);
        for (OrderPlacement placement : placements) {
            if (placement instanceof OrderPlacement.Placed placedNow) {
                Order order = placedNow.order();
                metrics.ordered(Duration.between(order.reservedAt(), order.placedAt()));
            }
        }
    }

    private static Instant oldestReservedAt(List<Reservation> batch) {
        Instant oldest = batch.getFirst().reservedAt();
        for (Reservation reservation : batch) {
            oldest = reservation.reservedAt().isBefore(oldest) ? reservation.reservedAt() : oldest;
        }
        return oldest;
    }

    private static Map<ActivityId, List<Reservation>> byActivity(Iterable<Reservation> reservations) {
        Map<ActivityId, List<Reservation>> grouped = new LinkedHashMap<>();
        reservations.forEach(r -> grouped.computeIfAbsent(r.activityId(), a -> new ArrayList<>()).add(r));
        return grouped;
    }

    private static List<ReservationId> ids(List<Reservation> reservations) {
        return reservations.stream().map(Reservation::id).toList();
    }
}
