package io.flashsale.application.shared.port.out;

/**
 * The hot store's figures for a SKU contradict each other (its segments do not sum to what its ledger says is
 * available, or the ledger itself is impossible): drift that reconciliation repairs from the database of record. Not a
 * bug of the caller and not an outage, so callers answer "try again later", never a server error.
 */
public class HotStoreFiguresDisagreeException extends RuntimeException {

    public HotStoreFiguresDisagreeException(String message) {
        super(message);
    }

    public HotStoreFiguresDisagreeException(String message, Throwable cause) {
        super(message, cause);
    }
}
