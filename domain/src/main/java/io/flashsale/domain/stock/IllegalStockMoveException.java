package io.flashsale.domain.stock;

/** A ledger move that would oversell or go negative. A bug or a race, never a buyer's mistake. */
public class IllegalStockMoveException extends IllegalStateException {

    public IllegalStockMoveException(String message) {
        super(message);
    }
}
