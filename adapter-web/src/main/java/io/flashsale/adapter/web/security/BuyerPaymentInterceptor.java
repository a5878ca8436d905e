package io.flashsale.adapter.web.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

/** Refuses {@link BuyerConfirmedPayment} handlers unless buyers may confirm their own payments (demo, tests). */
public final class BuyerPaymentInterceptor implements HandlerInterceptor {

    private final boolean buyerConfirms;

    public BuyerPaymentInterceptor(boolean buyerConfirms) {
        this.buyerConfirms = buyerConfirms;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (!buyerConfirms && handler instanceof HandlerMethod method
                && method.hasMethodAnnotation(BuyerConfirmedPayment.class)) {
            throw new BuyerPaymentDisabledException();
        }
        return true;
    }
}
