package io.flashsale.application.order.port.out;

import java.time.Instant;
import java.util.Objects;

/**
 * @param id            stable handle for the admin API (e.g. partition and offset in the dead-letter topic)
 * @param reservationId the event's key; null when even the key was unreadable
 * @param payload       the event as it was received
 * @param error         the last failure, as the pipeline saw it
 */
public record DeadLetter(String id, String reservationId, String payload, String error, Instant failedAt) {

    public DeadLetter {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(failedAt, "failedAt");
    }
}
