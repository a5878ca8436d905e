package io.flashsale.application.order.port.in;

import io.flashsale.application.order.model.PaymentNotification;
import io.flashsale.application.order.model.ProviderPaymentResult;

/**
 * The payment provider's word that an order was paid: the only way to PAID unless buyers are allowed to confirm
 * their own payments. Safe to repeat per payment reference; a payment that cannot pay the order is recorded, so the
 * provider refunds it.
 */
public interface ConfirmPaymentUseCase {

    ProviderPaymentResult confirm(PaymentNotification notification);
}
