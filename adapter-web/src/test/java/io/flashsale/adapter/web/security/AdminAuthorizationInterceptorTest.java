package io.flashsale.adapter.web.security;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.method.HandlerMethod;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AdminAuthorizationInterceptorTest {

    private final AdminAuthorizationInterceptor interceptor =
            new AdminAuthorizationInterceptor(new AdminGate(AdminToken.of("the-admin-token"), AdminAttempts.unlimited()));

    static class Handlers {

        @AdminOnly
        public void adminCall() {
        }

        public void publicCall() {
        }
    }

    @Test
    void givenAnAdminHandler_whenTheBearerTokenIsRight_thenTheCallProceeds() throws Exception {
        assertThat(preHandle("adminCall", "Bearer the-admin-token")).isTrue();
        assertThat(preHandle("adminCall", "bearer the-admin-token")).isTrue();
    }

    @Test
    void givenAnAdminHandler_whenTheTokenIsMissingOrWrong_thenUnauthorized() {
        for (String authorization : new String[] {null, "", "Bearer", "Bearer ", "Bearer wrong",
                "Basic dGhlLWFkbWluLXRva2Vu", "the-admin-token", "Bearer the-admin-token-and-more"}) {
            assertThatThrownBy(() -> preHandle("adminCall", authorization))
                    .as("Authorization: %s", authorization)
                    .isInstanceOf(UnauthorizedException.class);
        }
    }

    @Test
    void givenAnAdmittedAdminCall_thenTheHandlerLearnsTheTokenHolderAsItsOperator() throws Exception {
        var request = request("Bearer the-admin-token");
        interceptor.preHandle(request, new MockHttpServletResponse(), handler("adminCall"));
        assertThat(request.getAttribute(AdminOperator.ATTRIBUTE)).isEqualTo(AdminOperator.TOKEN_HOLDER);

        var refused = request("Bearer wrong");
        assertThatThrownBy(() -> interceptor.preHandle(refused, new MockHttpServletResponse(), handler("adminCall")))
                .isInstanceOf(UnauthorizedException.class);
        assertThat(refused.getAttribute(AdminOperator.ATTRIBUTE)).isNull();
    }

    @Test
    void givenAPublicHandler_whenNoTokenIsSent_thenTheCallProceeds() throws Exception {
        assertThat(preHandle("publicCall", null)).isTrue();
    }

    private boolean preHandle(String method, String authorization) throws NoSuchMethodException {
        return interceptor.preHandle(request(authorization), new MockHttpServletResponse(), handler(method));
    }

    private static MockHttpServletRequest request(String authorization) {
        var request = new MockHttpServletRequest();
        if (authorization != null) {
            request.addHeader("Authorization", authorization);
        }
        return request;
    }

    private static HandlerMethod handler(String method) throws NoSuchMethodException {
        return new HandlerMethod(new Handlers(), Handlers.class.getMethod(method));
    }
}
