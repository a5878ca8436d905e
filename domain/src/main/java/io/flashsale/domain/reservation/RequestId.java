package io.flashsale.domain.reservation;

import io.flashsale.domain.shared.Identifier;

/** The buyer's idempotency key: the same buyer sending it twice gets the first answer again. */
public record RequestId(String value) {

    public RequestId {
        Identifier.require(value, "requestId");
    }

    @Override
    public String toString() {
        return value;
    }
}
