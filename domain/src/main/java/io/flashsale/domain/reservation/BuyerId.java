package io.flashsale.domain.reservation;

import io.flashsale.domain.shared.Identifier;

/** The buyer as the gateway identified them (X-User-Id). */
public record BuyerId(String value) {

    public BuyerId {
        Identifier.require(value, "buyerId");
    }

    @Override
    public String toString() {
        return value;
    }
}
