package io.flashsale.application.order.service;

import io.flashsale.application.order.model.PaymentNotification;
import io.flashsale.application.order.model.ProviderPaymentResult;
import io.flashsale.application.order.port.in.ConfirmPaymentUseCase;
import io.flashsale.application.order.port.out.OrderLookupPort;
import io.flashsale.application.order.port.out.ProviderPaymentsPort;
import io.flashsale.application.order.port.out.RefusedPayment;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.ReservationAliasPort;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/**
 * The provider's payment notifications. The database of record decides as for {@link PaymentService}: one
 * conditional ORDERED -> PAID, which also stores the payment reference (unique), so of concurrent deliveries one
 * wins and the others find the order paid under their own reference: the same answer. A notification that cannot
 * pay the order (paid under another reference, past its deadline, cancelled, expired) is recorded for the refund.
 *
 * <p>The reservation must be ORDERED in the hot store as well (see {@link PaymentService}); while it is RESERVED
 * there the provider is told to try again.
 */
public class ProviderPaymentService implements ConfirmPaymentUseCase {

    /** The hot store is told after the database: one more look covers a move that happened between the two reads. */
    private static final int LOOKS = 2;

    private final OrderLookupPort orders;
    private final ProviderPaymentsPort payments;
    private final HeldReservationsPort hotStore;
    private final ReservationTransitionsPort reservations;
    private final ReservationAliasPort aliases;
    private final Clock clock;

    public ProviderPaymentService(OrderLookupPort orders, ProviderPaymentsPort payments,
                                  HeldReservationsPort hotStore, ReservationTransitionsPort reservations,
                                  ReservationAliasPort aliases, Clock clock) {
        this.orders = orders;
        this.payments = payments;
        this.hotStore = hotStore;
        this.reservations = reservations;
        this.aliases = aliases;
        this.clock = clock;
    }

    @Override
    public ProviderPaymentResult confirm(PaymentNotification notification) {
        ReservationId id = notification.reservationId();
        for (int look = 1; ; look++) {
            Optional<Order> order = orders.find(id);
            if (order.isPresent()) {
                return settle(order.get(), notification);
            }
            Optional<Reservation> held = hotStore.findReservation(id);
            if (held.isEmpty() || held.get().status() == ReservationStatus.FAILED) {
                Optional<Order> requestOrder = ReservationAliasPort.requestOrder(aliases, orders, id);
                if (requestOrder.isPresent()) {
                    return settle(requestOrder.get(), notification);
                }
            }
            if (held.isEmpty()) {
                // A provider told "not found" stops retrying: while the hot store is out it hears "try again".
                hotStore.requireReadable();
                return new ProviderPaymentResult.NotFound();
            }
            ReservationStatus status = held.get().status();
            if (status == ReservationStatus.CANCELLED || status == ReservationStatus.FAILED) {
                return refuse(notification, status);
            }
            if (status == ReservationStatus.RESERVED || look == LOOKS) {
                return new ProviderPaymentResult.NotYetOrdered();
            }
        }
    }

    private ProviderPaymentResult settle(Order order, PaymentNotification notification) {
        return switch (order.status()) {
            case PAID -> paidUnder(order, notification);
            case ORDERED -> payOrdered(order, notification);
            case CANCELLED, EXPIRED, FAILED -> refuse(notification, order.status());
            case RESERVED -> new ProviderPaymentResult.NotYetOrdered();
        };
    }

    private ProviderPaymentResult paidUnder(Order paid, PaymentNotification notification) {
        boolean sameReference = payments.referenceOf(paid.id()).filter(notification.reference()::equals).isPresent();
        return sameReference ? new ProviderPaymentResult.AlreadyPaid(paid) : conflict(paid, notification);
    }

    private ProviderPaymentResult payOrdered(Order order, PaymentNotification notification) {
        ReservationId id = order.id();
        Optional<ReservationStatus> hotStatus = hotStore.findReservation(id).map(Reservation::status);
        if (hotStatus.isPresent() && hotStatus.get() == ReservationStatus.RESERVED) {
            return new ProviderPaymentResult.NotYetOrdered();
        }
        if (hotStatus.isPresent() && hotStatus.get() == ReservationStatus.CANCELLED) {
            // Released there while the order was being placed; the order pipeline cancels it here too.
            return refuse(notification, ReservationStatus.CANCELLED);
        }
        Instant now = clock.instant();
        return switch (payments.markPaid(id, notification.reference(), notification.paidAt(), now)) {
            case PAID -> {
                mirrorPaid(id);
                // Read back, so that this answer and a repeated notification's show the stored payment time alike.
                yield new ProviderPaymentResult.Paid(orders.find(id).orElseGet(
                        () -> order.closed(ReservationStatus.PAID, now)));
            }
            case REFERENCE_TAKEN -> conflict(order, notification);
            // Another delivery, a cancellation or the expiry won; still ORDERED means the deadline passed.
            case NOT_CHANGED -> orders.find(id).map(current -> switch (current.status()) {
                case PAID -> paidUnder(current, notification);
                case ORDERED -> refuse(notification, ReservationStatus.EXPIRED);
                default -> refuse(notification, current.status());
            }).orElseGet(ProviderPaymentResult.NotFound::new);
        };
    }

    private ProviderPaymentResult conflict(Order order, PaymentNotification notification) {
        record(notification, RefusedPayment.Reason.CONFLICT, order.status());
        return new ProviderPaymentResult.Conflict(order);
    }

    private ProviderPaymentResult refuse(PaymentNotification notification, ReservationStatus status) {
        record(notification, RefusedPayment.Reason.NOT_PAYABLE, status);
        return new ProviderPaymentResult.Refused(status);
    }

    private void record(PaymentNotification notification, RefusedPayment.Reason reason, ReservationStatus status) {
        payments.recordRefused(new RefusedPayment(notification.reservationId(), notification.reference(), reason,
                status, notification.paidAt(), clock.instant()));
    }

    private void mirrorPaid(ReservationId id) {
        try {
            reservations.markPaid(id);
        } catch (RuntimeException hotStoreFailed) {
            // Only a mirror: a paid order's status is always read from the database of record.
        }
    }
}
