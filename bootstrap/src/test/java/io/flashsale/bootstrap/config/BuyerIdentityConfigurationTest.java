package io.flashsale.bootstrap.config;

import io.flashsale.adapter.web.security.BuyerAuthenticationException;
import io.flashsale.adapter.web.security.BuyerAuthenticator;
import io.flashsale.adapter.web.security.demo.DemoTokenIssuer;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.testsupport.TestBuyerTokens;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.mock.web.MockHttpServletRequest;

import java.time.Clock;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BuyerIdentityConfigurationTest {

    private final ApplicationContextRunner context = new ApplicationContextRunner()
            .withUserConfiguration(BuyerIdentityConfiguration.class);

    /** A buyer proven outside a request stays in this thread's log context: the request's filter clears it there. */
    @AfterEach
    void clearLogContext() {
        MDC.clear();
    }

    @Test
    void givenNothingConfigured_whenStarted_thenBuyersNeedATokenAndTheIssuersKeyIsAskedFor() {
        context.run(started -> assertThat(started).hasFailed()
                .getFailure().rootCause().hasMessageContaining("flashsale.security.buyer-auth=jwt")
                .hasMessageContaining("public-key-location"));
        TestBuyerTokens issuer = TestBuyerTokens.rsa();
        context.withPropertyValues(
                        "spring.security.oauth2.resourceserver.jwt.public-key-location=" + issuer.publicKeyLocation())
                .run(started -> {
                    BuyerAuthenticator buyers = started.getBean(BuyerAuthenticator.class);
                    assertThat(authenticate(buyers, "Authorization", "Bearer " + issuer.forBuyer("alice")))
                            .isEqualTo(new BuyerId("alice"));
                    assertThatThrownBy(() -> authenticate(buyers, "X-User-Id", "alice"))
                            .as("the header alone names no buyer by default")
                            .isInstanceOf(BuyerAuthenticationException.class);
                });
    }

    @Test
    void givenTrustedHeaderSetExplicitly_whenStarted_thenBuyersComeFromTheHeader() {
        context.withPropertyValues("flashsale.security.buyer-auth=trusted-header")
                .run(started -> assertThat(authenticate(started.getBean(BuyerAuthenticator.class), "X-User-Id",
                        "alice")).isEqualTo(new BuyerId("alice")));
    }

    @Test
    void givenJwtWithAPublicKeyLocation_whenStarted_thenTokensOfThatKeyNameTheBuyer() {
        TestBuyerTokens issuer = TestBuyerTokens.rsa();
        context.withPropertyValues("flashsale.security.buyer-auth=jwt",
                        "spring.security.oauth2.resourceserver.jwt.public-key-location=" + issuer.publicKeyLocation())
                .run(started -> {
                    BuyerAuthenticator buyers = started.getBean(BuyerAuthenticator.class);
                    assertThat(authenticate(buyers, "Authorization", "Bearer " + issuer.forBuyer("bob")))
                            .isEqualTo(new BuyerId("bob"));
                    assertThatThrownBy(() -> authenticate(buyers, "X-User-Id", "bob"))
                            .isInstanceOf(BuyerAuthenticationException.class);
                });
    }

    @Test
    void givenJwtWithoutAKey_whenStartedOutsideDemoMode_thenItRefusesToStart_andInDemoModeItTakesTheDemoIssuers() {
        var jwt = context.withPropertyValues("flashsale.security.buyer-auth=jwt");
        jwt.run(started -> assertThat(started).hasFailed()
                .getFailure().rootCause().hasMessageContaining("public-key-location"));

        DemoTokenIssuer demo = DemoTokenIssuer.generate(Clock.systemUTC(), Duration.ofMinutes(15));
        jwt.withBean(DemoTokenIssuer.class, () -> demo).run(started -> assertThat(authenticate(
                started.getBean(BuyerAuthenticator.class), "Authorization",
                "Bearer " + demo.issue(new BuyerId("carol")).token())).isEqualTo(new BuyerId("carol")));
    }

    @Test
    void givenAGatewaySecret_whenStarted_thenTheHeaderIsTakenOnlyWithIt() {
        context.withPropertyValues("flashsale.security.buyer-auth=trusted-header",
                "flashsale.security.gateway-secret=s3cret").run(started -> {
            BuyerAuthenticator buyers = started.getBean(BuyerAuthenticator.class);
            assertThatThrownBy(() -> authenticate(buyers, "X-User-Id", "alice"))
                    .isInstanceOf(BuyerAuthenticationException.class);
            var request = new MockHttpServletRequest();
            request.addHeader("X-User-Id", "alice");
            request.addHeader("X-Gateway-Secret", "s3cret");
            assertThat(buyers.authenticate(request)).isEqualTo(new BuyerId("alice"));
        });
    }

    private static BuyerId authenticate(BuyerAuthenticator buyers, String header, String value) {
        var request = new MockHttpServletRequest();
        request.addHeader(header, value);
        return buyers.authenticate(request);
    }
}
