package io.flashsale.application.order.port.out;

import java.util.List;
import java.util.Optional;

/** Reservation events the order pipeline gave up on after its last retry, kept for an admin to inspect and re-drive. */
public interface DeadLetterPort {

    /** Oldest first, at most {@code max}. */
    List<DeadLetter> list(int max);

    Optional<DeadLetter> find(String deadLetterId);

    /** Sends the event back to the order pipeline, unchanged; the consumer's idempotence makes this safe to repeat. */
    void replay(DeadLetter deadLetter);
}
