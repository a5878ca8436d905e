package io.flashsale.adapter.kafka;

/** A reservation event that no number of retries will make readable: it goes to the dead-letter topic at once. */
public class MalformedReservationMessageException extends RuntimeException {

    public MalformedReservationMessageException(String message) {
        super(message);
    }

    public MalformedReservationMessageException(String message, Throwable cause) {
        super(message, cause);
    }
}
