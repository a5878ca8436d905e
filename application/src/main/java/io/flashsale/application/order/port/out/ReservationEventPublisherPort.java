package io.flashsale.application.order.port.out;

import io.flashsale.domain.reservation.Reservation;

import java.util.List;

/** Hands accepted reservations to the order pipeline. */
public interface ReservationEventPublisherPort {

    /**
     * Returns only when the broker acknowledged every reservation (durably, acks=all).
     *
     * @throws EventPublishException when any of them was not acknowledged; the caller must not acknowledge its outbox
     */
    void publish(List<Reservation> reservations);

    /**
     * As {@link #publish}, and where the broker stored each event, in the order of {@code reservations}; empty when
     * the broker has no positions to tell (then reconciliation finds the events by the outbox alone).
     */
    default List<EventPosition> publishAt(List<Reservation> reservations) {
        publish(reservations);
        return List.of();
    }
}
