package io.flashsale.domain.reconciliation;

import io.flashsale.domain.reservation.BuyerId;

import java.util.Objects;

/** A buyer whose units of the SKU the hot store counts differently from what the database of record implies. */
public record HoldingMismatch(BuyerId buyerId, long expected, long actual) {

    public HoldingMismatch {
        Objects.requireNonNull(buyerId, "buyerId");
        if (expected == actual) {
            throw new IllegalArgumentException("no mismatch for " + buyerId + ": both " + expected);
        }
    }

    /** The hot store counts fewer units than the buyer holds: it would let the buyer pass the limit. */
    public boolean hotStoreCountsFewer() {
        return actual < expected;
    }

    @Override
    public String toString() {
        return buyerId + " expected " + expected + " actual " + actual;
    }
}
