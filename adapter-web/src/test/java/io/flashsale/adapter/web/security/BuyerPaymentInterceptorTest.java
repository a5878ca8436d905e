package io.flashsale.adapter.web.security;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.method.HandlerMethod;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BuyerPaymentInterceptorTest {

    static class Handlers {

        @BuyerConfirmedPayment
        public void buyerPays() {
        }

        public void buyerCancels() {
        }
    }

    @Test
    void givenBuyersMayNotConfirm_whenTheBuyersPaymentIsCalled_thenRefused() {
        assertThatThrownBy(() -> preHandle(false, "buyerPays")).isInstanceOf(BuyerPaymentDisabledException.class);
    }

    @Test
    void givenBuyersMayNotConfirm_whenAnotherCallIsMade_thenItProceeds() throws Exception {
        assertThat(preHandle(false, "buyerCancels")).isTrue();
    }

    @Test
    void givenBuyersMayConfirm_whenTheBuyersPaymentIsCalled_thenItProceeds() throws Exception {
        assertThat(preHandle(true, "buyerPays")).isTrue();
    }

    private static boolean preHandle(boolean buyerConfirms, String method) throws NoSuchMethodException {
        return new BuyerPaymentInterceptor(buyerConfirms).preHandle(new MockHttpServletRequest(),
                new MockHttpServletResponse(), new HandlerMethod(new Handlers(), Handlers.class.getMethod(method)));
    }
}
