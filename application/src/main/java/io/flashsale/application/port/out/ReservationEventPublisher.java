package io.flashsale.application.port.out;

import io.flashsale.domain.reservation.Reservation;

import java.util.List;

/** Hands accepted reservations to the order pipeline. */
public interface ReservationEventPublisher {

    /**
     * Returns only when the broker acknowledged every reservation (durably, acks=all).
     *
     * @throws EventPublishException when any of them was not acknowledged; the caller must not acknowledge its outbox
     */
    void publish(List<Reservation> reservations);
}
