package io.flashsale.application.order.service;

import io.flashsale.application.order.model.CancellationResult;
import io.flashsale.application.order.port.in.CancelReservationUseCase;
import io.flashsale.application.order.port.out.OrderLookupPort;
import io.flashsale.application.order.port.out.OrderTransitionsPort;
import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.application.order.port.out.RestoreQueuePort;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.ReservationAliasPort;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/**
 * Cancellation by the buyer. Whoever holds the reservation decides: the hot store while it is RESERVED (its atomic
 * release gives the units back; the order pipeline then never makes it an order), the database of record once it
 * is an order (its conditional ORDERED -> CANCELLED, whose winner alone gives the units back there, then here). A
 * reservation the pipeline refused as its request's duplicate cancels the request's order (ADR 61): the alias is asked
 * only when the database has no order of the id and the hot store does not hold it as RESERVED or CANCELLED; a second
 * id cancelled while RESERVED cancels the request's order held under the first.
 */
public class CancellationService implements CancelReservationUseCase {

    /** The hot store is told after the database, so it can move on between the two reads: look again, boundedly. */
    private static final int LOOKS = 3;

    private final OrderLookupPort orders;
    private final OrderTransitionsPort transitions;
    private final HeldReservationsPort hotStore;
    private final ReservationTransitionsPort reservations;
    private final HotStoreRestores restores;
    private final ReservationAliasPort aliases;
    private final Clock clock;

    public CancellationService(OrderLookupPort orders, OrderTransitionsPort transitions, RestoreQueuePort restoreQueue,
                               HeldReservationsPort hotStore, ReservationTransitionsPort reservations, Clock clock) {
        this(orders, transitions, restoreQueue, hotStore, reservations, ReservationAliasPort.none(), clock);
    }

    public CancellationService(OrderLookupPort orders, OrderTransitionsPort transitions, RestoreQueuePort restoreQueue,
                               HeldReservationsPort hotStore, ReservationTransitionsPort reservations,
                               ReservationAliasPort aliases, Clock clock) {
        this.orders = orders;
        this.transitions = transitions;
        this.hotStore = hotStore;
        this.reservations = reservations;
        this.restores = new HotStoreRestores(restoreQueue, reservations, clock);
        this.aliases = aliases;
        this.clock = clock;
    }

    @Override
    public CancellationResult cancel(BuyerId buyerId, ReservationId reservationId) {
        ReservationStatus lastSeen = null;
        for (int look = 1; look <= LOOKS; look++) {
            Optional<Order> order = orders.find(reservationId);
            Optional<Reservation> held = Optional.empty();
            if (order.isEmpty()) {
                held = hotStore.findReservation(reservationId).filter(r -> r.isOwnedBy(buyerId));
                if (held.isEmpty() || held.get().status() == ReservationStatus.FAILED) {
                    order = ReservationAliasPort.requestOrder(aliases, orders, reservationId);
                }
            }
            if (order.isPresent()) {
                if (!order.get().buyerId().equals(buyerId)) {
                    return new CancellationResult.NotFound();
                }
                Optional<CancellationResult> decided = cancelOrder(order.get());
                if (decided.isPresent()) {
                    return decided.get();
                }
                lastSeen = ReservationStatus.ORDERED;
                continue;
            }
            if (held.isEmpty()) {
                hotStore.requireReadable();
                return new CancellationResult.NotFound();
            }
            Reservation reservation = held.get();
            lastSeen = reservation.status();
            if (lastSeen == ReservationStatus.CANCELLED) {
                // Again here: the first cancellation may have failed after its release, on the database's read.
                cancelTheRequestsOrder(reservation);
                return new CancellationResult.AlreadyCancelled(reservation);
            }
            if (lastSeen == ReservationStatus.RESERVED && reservations.release(reservationId, clock.instant())) {
                cancelTheRequestsOrder(reservation);
                return new CancellationResult.Cancelled(reservation.transitionTo(ReservationStatus.CANCELLED));
            }
            // Confirmed or failed since the database was asked: the database knows the order now.
        }
        return new CancellationResult.NotCancellable(lastSeen);
    }

    /**
     * A request decided on the database path and then again on Redis, through another instance or after Redis lost
     * its request index, holds its one order under the first id (ADR 61). A buyer who cancels the second id while Redis
     * still holds it cancels the request, so that order goes too; one that is paid stays. The pipeline later finds the
     * second id cancelled and makes no order of it.
     */
    private void cancelTheRequestsOrder(Reservation released) {
        orders.findByRequest(released.activityId(), released.buyerId(), released.requestId())
                .filter(order -> !order.id().equals(released.id()) && order.status() == ReservationStatus.ORDERED)
                .ifPresent(this::cancelOrder);
    }

    /** Empty when a concurrent move won the transition: the caller looks again and finds what it left. */
    private Optional<CancellationResult> cancelOrder(Order order) {
        return switch (order.status()) {
            case ORDERED -> {
                Instant now = clock.instant();
                if (!transitions.closeWithRestore(order.id(), ReservationStatus.CANCELLED, now)) {
                    yield Optional.empty();
                }
                restores.tryComplete(PendingRestore.of(order, ReservationStatus.CANCELLED));
                yield Optional.of(new CancellationResult.Cancelled(
                        order.closed(ReservationStatus.CANCELLED, now).toReservation()));
            }
            case CANCELLED -> Optional.of(new CancellationResult.AlreadyCancelled(order.toReservation()));
            case RESERVED, PAID, EXPIRED, FAILED -> Optional.of(new CancellationResult.NotCancellable(order.status()));
        };
    }
}
