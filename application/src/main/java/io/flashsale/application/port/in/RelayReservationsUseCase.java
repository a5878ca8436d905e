package io.flashsale.application.port.in;

public interface RelayReservationsUseCase {

    /** One pass over every outbox: claims stale entries, reads new ones, publishes, acknowledges. Returns how many were relayed. */
    int relayPending();
}
