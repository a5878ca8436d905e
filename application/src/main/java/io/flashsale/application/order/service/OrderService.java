package io.flashsale.application.order.service;

import io.flashsale.application.order.port.in.PlaceOrderUseCase;
import io.flashsale.application.order.port.out.OrderPipelineMetricsPort;
import io.flashsale.application.order.port.out.OrderPlacementPort;
import io.flashsale.application.order.port.out.OrderTransitionsPort;
import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.application.order.port.out.RestoreQueuePort;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/**
 * Turns a delivered reservation into an order: the database of record decides first, then the hot store is told.
 * Every step is idempotent, so a delivery that died anywhere can simply be delivered again.
 *
 * <p>The buyer may cancel while the reservation is still RESERVED, and then the hot store decides. A reservation
 * the hot store already cancelled is recorded as cancelled, never placed. One cancelled after that look but before
 * the order was committed is found when the hot store refuses to confirm it: the database then cancels the new order
 * and gives back its own units only, because the hot store gave back its units when it released them.
 */
public class OrderService implements PlaceOrderUseCase {

    private final OrderPlacementPort orders;
    private final OrderTransitionsPort transitions;
    private final HeldReservationsPort hotStore;
    private final ReservationTransitionsPort reservations;
    private final OrderPipelineMetricsPort metrics;
    private final HotStoreRestores restores;
    private final Clock clock;

    public OrderService(OrderPlacementPort orders, OrderTransitionsPort transitions, RestoreQueuePort restoreQueue,
                        HeldReservationsPort hotStore, ReservationTransitionsPort reservations,
                        OrderPipelineMetricsPort metrics, Clock clock) {
        this.orders = orders;
        this.transitions = transitions;
        this.hotStore = hotStore;
        this.reservations = reservations;
        this.metrics = metrics;
        this.restores = new HotStoreRestores(restoreQueue, reservations, clock);
        this.clock = clock;
    }

    @Override
    public OrderPlacement placeOrder(Reservation reservation) {
        ReservationId id = reservation.id();
        Instant now = clock.instant();
        OrderPlacement placement = cancelledByTheBuyer(id)
                ? orders.recordCancelledBeforeOrder(reservation, hotStore.cancelledAt(id).orElse(now), now)
                : orders.place(reservation, now);
        // Recorded before the hot store is told: the database's decision stands even if Redis is down now.
        metrics.recorded(placement);
        switch (placement) {
            case OrderPlacement.Placed placed -> confirmOrCancel(id);
            // The first delivery may have died between the commit and the hot store's update: repeat it.
            case OrderPlacement.AlreadyPlaced already -> catchUp(already.order());
            case OrderPlacement.Refused refused -> reservations.fail(id);
            case OrderPlacement.CancelledBeforeOrder cancelled -> {
                // The hot store released the units itself when the buyer cancelled.
            }
        }
        return placement;
    }

    private boolean cancelledByTheBuyer(ReservationId id) {
        return hotStore.findReservation(id).map(Reservation::status)
                .filter(ReservationStatus.CANCELLED::equals).isPresent();
    }

    void confirmOrCancel(ReservationId id) {
        if (reservations.confirm(id)) {
            return;
        }
        Optional<Reservation> held = hotStore.findReservation(id);
        if (held.isPresent() && held.get().status() == ReservationStatus.CANCELLED) {
            // Released by the buyer between our look and the commit. A no-op if the order left ORDERED meanwhile.
            transitions.cancelReleased(id, hotStore.cancelledAt(id).orElseGet(clock::instant));
        }
    }

    /** Brings the hot store to what an earlier delivery (or a later move on the order) settled. */
    void catchUp(Order order) {
        ReservationId id = order.id();
        switch (order.status()) {
            case ORDERED -> confirmOrCancel(id);
            case FAILED -> reservations.fail(id);
            case PAID -> {
                reservations.confirm(id);
                reservations.markPaid(id);
            }
            case CANCELLED, EXPIRED -> {
                if (order.wasOrdered()) {
                    // Closed before the hot store heard of the order: confirm it there so its units can come back.
                    reservations.confirm(id);
                    restores.complete(PendingRestore.of(order));
                }
            }
            case RESERVED -> throw new IllegalStateException("order " + id + " is RESERVED, which no order can be");
        }
    }
}
