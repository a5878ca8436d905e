package io.flashsale.adapter.web.security;

/** A buyer's own payment confirmation while only the payment provider may confirm payments. */
public class BuyerPaymentDisabledException extends RuntimeException {

    public BuyerPaymentDisabledException() {
        super("payments are confirmed by the payment provider only");
    }
}
