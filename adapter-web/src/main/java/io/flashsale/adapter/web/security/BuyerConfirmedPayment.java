package io.flashsale.adapter.web.security;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A handler through which the buyer says it paid: refused ({@link BuyerPaymentInterceptor}) unless buyers may confirm
 * their own payments; otherwise only the payment provider's signed notification pays.
 */
@Documented
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
public @interface BuyerConfirmedPayment {
}
