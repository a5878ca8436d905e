package io.flashsale.application.shared.port.out;

/**
 * A store did not answer in time: the database of record (a lost or refused connection, no free connection within the
 * pool's wait, a statement or lock wait that timed out) or Redis (a refused or reset connection, a command timeout).
 * A condition that passes, not a bug: the caller may try again. What the
 * call would have changed is either not done or done whole (each change is one transaction), so a retry finds one or
 * the other; a payment or a cancellation retried after a commit whose answer was lost finds the order already moved.
 */
public class StoreUnavailableException extends RuntimeException {

    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
