package io.flashsale.domain.order;

import io.flashsale.domain.shared.Identifier;

/** The payment provider's id of one payment: one payment pays one order, once. */
public record PaymentReference(String value) {

    public PaymentReference {
        Identifier.require(value, "paymentReference");
    }

    @Override
    public String toString() {
        return value;
    }
}
