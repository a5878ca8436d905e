package io.flashsale.application.shared.port.out;

/**
 * The database of record answered, but the change met another one on the same rows: a deadlock it was chosen to lose,
 * or a lock wait that outlasted the server's timeout. Not an outage ({@link StoreUnavailableException}) and not a bug:
 * the transaction was rolled back whole, so the caller may try again and finds the rows as the other change left them.
 */
public class StoreContentionException extends RuntimeException {

    public StoreContentionException(String message, Throwable cause) {
        super(message, cause);
    }
}
