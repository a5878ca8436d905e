package io.flashsale.application.order.port.out;

/**
 * News that outboxes hold entries no relay has read yet: from this instance's accepted reservations at once, from the
 * other instances' within moments. News is a hint, never the only way an entry is found: a notice may be lost.
 */
public interface OutboxNewsPort {

    /** From now on, {@code listener} hears of every outbox with news, on this instance and on the others. */
    void subscribe(OutboxNewsListener listener);
}
