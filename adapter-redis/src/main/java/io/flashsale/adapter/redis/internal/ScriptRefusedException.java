package io.flashsale.adapter.redis.internal;

import io.flashsale.domain.stock.IllegalStockMoveException;

/**
 * A script refused a move that the reference model refuses too (a repeated SKU, a quantity below 1, a counter that
 * would go below zero), writing nothing. A bug or a race in the caller, never a buyer's mistake.
 */
public final class ScriptRefusedException extends IllegalStockMoveException {

    public ScriptRefusedException(String script, String reason) {
        super(script + ".lua refused: " + reason);
    }
}
