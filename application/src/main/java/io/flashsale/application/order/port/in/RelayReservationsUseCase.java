package io.flashsale.application.order.port.in;

public interface RelayReservationsUseCase {

    /**
     * One pass over the outboxes due now: claims stale entries, reads new ones, publishes, acknowledges. Returns how many
     * were relayed; more than none means more may be waiting.
     */
    int relayPending();

    /** {@code wake} is run whenever work arrives between passes, on the thread that brought it; it must not block. */
    default void whenWorkArrives(Runnable wake) {
    }
}
