package io.flashsale.adapter.web.security;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.method.HandlerMethod;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AdminAuthorizationInterceptorTest {

    private final AdminAuthorizationInterceptor interceptor = new AdminAuthorizationInterceptor(new AdminGate(
            AdminCredentials.of(Map.of("olivia", AdminToken.of("the-admin-token"),
                    "peter", AdminToken.of("peters-token"))), AdminAttempts.unlimited()));
    private MockHttpServletRequest lastRequest;

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
    void givenAnAdminHandler_whenAdmitted_thenTheRequestNamesTheOperatorWhoseTokenItShowed() throws Exception {
        preHandle("adminCall", "Bearer peters-token");
        assertThat(lastRequest.getAttribute(AdminOperator.ATTRIBUTE)).isEqualTo("peter");

        var spoofed = new MockHttpServletRequest();
        spoofed.addHeader("Authorization", "Bearer the-admin-token");
        spoofed.addHeader("X-Operator", "peter");
        interceptor.preHandle(spoofed, new MockHttpServletResponse(),
                new HandlerMethod(new Handlers(), Handlers.class.getMethod("adminCall")));
        assertThat(spoofed.getAttribute(AdminOperator.ATTRIBUTE)).as("never a declared name").isEqualTo("olivia");
    }

    @Test
    void givenAPublicHandler_whenATokenIsSent_thenNoOperatorIsNamed() throws Exception {
        preHandle("publicCall", "Bearer peters-token");
        assertThat(lastRequest.getAttribute(AdminOperator.ATTRIBUTE)).isNull();
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
    void givenAPublicHandler_whenNoTokenIsSent_thenTheCallProceeds() throws Exception {
        assertThat(preHandle("publicCall", null)).isTrue();
    }

    private boolean preHandle(String method, String authorization) throws NoSuchMethodException {
        var request = new MockHttpServletRequest();
        lastRequest = request;
        if (authorization != null) {
            request.addHeader("Authorization", authorization);
        }
        var handler = new HandlerMethod(new Handlers(), Handlers.class.getMethod(method));
        return interceptor.preHandle(request, new MockHttpServletResponse(), handler);
    }
}
