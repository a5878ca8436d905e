package io.flashsale.application.order.port.in;

public interface ExpireUnpaidOrdersUseCase {

    /**
     * One pass: up to {@code max} ORDERED orders whose payment deadline has passed become EXPIRED and give their units
     * back. Safe to run on every instance at once. Returns how many this pass expired.
     */
    int expireDue(int max);
}
