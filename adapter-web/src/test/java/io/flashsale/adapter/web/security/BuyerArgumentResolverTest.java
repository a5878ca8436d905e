package io.flashsale.adapter.web.security;

import io.flashsale.domain.reservation.BuyerId;
import org.junit.jupiter.api.Test;
import org.springframework.core.MethodParameter;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.context.request.ServletWebRequest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BuyerArgumentResolverTest {

    private final BuyerArgumentResolver resolver = new BuyerArgumentResolver(TrustedHeaderBuyerAuthenticator.withoutSecret());

    static class Handlers {

        public void buyerCall(BuyerId buyer, String other) {
        }
    }

    @Test
    void givenAHandlerParameter_whenItIsABuyerId_thenTheResolverTakesIt() throws Exception {
        var method = Handlers.class.getMethod("buyerCall", BuyerId.class, String.class);

        assertThat(resolver.supportsParameter(new MethodParameter(method, 0))).isTrue();
        assertThat(resolver.supportsParameter(new MethodParameter(method, 1))).isFalse();
    }

    @Test
    void givenAWellFormedHeader_whenResolved_thenTheBuyerIsThatId() {
        assertThat(resolve("buyer_42-A")).isEqualTo(new BuyerId("buyer_42-A"));
        assertThat(resolve("b".repeat(64))).isEqualTo(new BuyerId("b".repeat(64)));
    }

    @Test
    void givenAMissingOrMalformedHeader_whenResolved_thenMissingUser() {
        for (String value : new String[] {null, "", " ", "b".repeat(65), "bob smith", "bob\u00e9", "x' OR '1'='1",
                "bob\n", "a:b", "\u202ebob"}) {
            assertThatThrownBy(() -> resolve(value)).as("X-User-Id: %s", value).isInstanceOf(MissingUserException.class);
        }
    }

    @Test
    void givenTwoHeaders_whenResolved_thenMissingUser() {
        var request = new MockHttpServletRequest();
        request.addHeader(BuyerArgumentResolver.HEADER, "alice");
        request.addHeader(BuyerArgumentResolver.HEADER, "bob");

        assertThatThrownBy(() -> resolver.resolveArgument(null, null, new ServletWebRequest(request), null))
                .isInstanceOf(MissingUserException.class);
    }

    private BuyerId resolve(String header) {
        var request = new MockHttpServletRequest();
        if (header != null) {
            request.addHeader(BuyerArgumentResolver.HEADER, header);
        }
        return resolver.resolveArgument(null, null, new ServletWebRequest(request), null);
    }
}
