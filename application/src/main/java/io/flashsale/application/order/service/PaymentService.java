package io.flashsale.application.order.service;

import io.flashsale.application.order.model.PaymentResult;
import io.flashsale.application.order.port.in.PayReservationUseCase;
import io.flashsale.application.order.port.out.OrderLookupPort;
import io.flashsale.application.order.port.out.OrderTransitionsPort;
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
 * Payment: the database of record decides by its conditional ORDERED -> PAID, so a payment racing a cancellation
 * or the expiry either wins or finds the order closed. Paying moves no stock.
 *
 * <p>The order must also be ORDERED in the hot store. While the hot store still says RESERVED, the buyer may cancel
 * there (the hot store decides for reservations that are not orders yet), and the order pipeline then cancels the
 * fresh order too; accepting a payment in that window could leave a paid order whose units the hot store gave back.
 * Once the hot store says ORDERED it can no longer release the reservation, so the database alone decides.
 *
 * <p>A reservation the pipeline refused as its request's duplicate pays the request's order (ADR 61): the alias is
 * asked only when the database has no order of the id and the hot store does not hold it as RESERVED.
 */
public class PaymentService implements PayReservationUseCase {

    /** The hot store is told after the database: one more look covers a move that happened between the two reads. */
    private static final int LOOKS = 2;

    private final OrderLookupPort orders;
    private final OrderTransitionsPort transitions;
    private final HeldReservationsPort hotStore;
    private final ReservationTransitionsPort reservations;
    private final ReservationAliasPort aliases;
    private final Clock clock;

    public PaymentService(OrderLookupPort orders, OrderTransitionsPort transitions, HeldReservationsPort hotStore,
                          ReservationTransitionsPort reservations,
                          Clock clock) {
        this(orders, transitions, hotStore, reservations, ReservationAliasPort.none(), clock);
    }

    public PaymentService(OrderLookupPort orders, OrderTransitionsPort transitions, HeldReservationsPort hotStore,
                          ReservationTransitionsPort reservations,
                          ReservationAliasPort aliases, Clock clock) {
        this.orders = orders;
        this.transitions = transitions;
        this.hotStore = hotStore;
        this.reservations = reservations;
        this.aliases = aliases;
        this.clock = clock;
    }

    @Override
    public PaymentResult pay(BuyerId buyerId, ReservationId reservationId) {
        for (int look = 1; ; look++) {
            Optional<Order> order = orders.find(reservationId);
            if (order.isPresent()) {
                return order.get().buyerId().equals(buyerId) ? payOrder(order.get()) : new PaymentResult.NotFound();
            }
            Optional<Reservation> held = hotStore.findReservation(reservationId).filter(r -> r.isOwnedBy(buyerId));
            if (held.isEmpty() || held.get().status() == ReservationStatus.FAILED) {
                Optional<Order> requestOrder = ReservationAliasPort.requestOrder(aliases, orders, reservationId);
                if (requestOrder.isPresent()) {
                    return requestOrder.get().buyerId().equals(buyerId) ? payOrder(requestOrder.get())
                            : new PaymentResult.NotFound();
                }
            }
            if (held.isEmpty()) {
                hotStore.requireReadable();
                return new PaymentResult.NotFound();
            }
            ReservationStatus status = held.get().status();
            if (status == ReservationStatus.RESERVED || status == ReservationStatus.CANCELLED || look == LOOKS) {
                return new PaymentResult.NotPayable(status);
            }
        }
    }

    private PaymentResult payOrder(Order order) {
        return switch (order.status()) {
            case PAID -> new PaymentResult.AlreadyPaid(order.toReservation());
            case ORDERED -> payOrdered(order);
            case RESERVED, CANCELLED, EXPIRED, FAILED -> new PaymentResult.NotPayable(order.status());
        };
    }

    private PaymentResult payOrdered(Order order) {
        ReservationId id = order.id();
        Optional<ReservationStatus> hotStatus = hotStore.findReservation(id).map(Reservation::status);
        if (hotStatus.isPresent() && hotStatus.get() != ReservationStatus.ORDERED) {
            // RESERVED: not confirmed there yet, the buyer tries again shortly. CANCELLED: released there while the
            // order was being placed; the order pipeline cancels it here too.
            return new PaymentResult.NotPayable(hotStatus.get());
        }
        Instant now = clock.instant();
        if (transitions.markPaid(id, now)) {
            mirrorPaid(id);
            return new PaymentResult.Paid(order.closed(ReservationStatus.PAID, now).toReservation());
        }
        // A cancellation, the expiry or another payment won the transition: answer with what it left. Still ORDERED
        // means the deadline passed: to the buyer the order is expired, whether or not the expiry pass recorded it.
        return orders.find(id).<PaymentResult>map(current -> switch (current.status()) {
                    case PAID -> new PaymentResult.AlreadyPaid(current.toReservation());
                    case ORDERED -> new PaymentResult.NotPayable(ReservationStatus.EXPIRED);
                    default -> new PaymentResult.NotPayable(current.status());
                })
                .orElseGet(PaymentResult.NotFound::new);
    }

    private void mirrorPaid(ReservationId id) {
        try {
            reservations.markPaid(id);
        } catch (RuntimeException hotStoreFailed) {
            // Only a mirror: a paid order's status is always read from the database of record.
        }
    }
}
