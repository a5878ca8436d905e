package io.flashsale.adapter.kafka;

import org.springframework.kafka.listener.BatchListenerFailedException;

/**
 * One record of the batch failed for a reason that is not a store out of reach: an event that cannot be decoded (no
 * retry) or one whose placement fails by itself (a few retries, then the dead-letter topic). The records before it are
 * committed, the ones after it come again.
 */
final class UnplaceableReservationException extends BatchListenerFailedException {

    UnplaceableReservationException(String message, Throwable cause, int index) {
        super(message, cause, index);
    }
}
