package io.flashsale.adapter.web.security;

import io.flashsale.adapter.web.ProblemCode;
import io.flashsale.domain.reservation.BuyerId;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TrustedHeaderBuyerAuthenticatorTest {

    private final TrustedHeaderBuyerAuthenticator withSecret = TrustedHeaderBuyerAuthenticator.withSecret("s3cret");

    @Test
    void givenTheGatewaySecret_whenAuthenticated_thenTheBuyerIsTheHeader() {
        assertThat(withSecret.authenticate(request("alice", "s3cret"))).isEqualTo(new BuyerId("alice"));
    }

    @Test
    void givenAMissingOrWrongOrRepeatedSecret_whenAuthenticated_thenGatewaySecretInvalid() {
        var repeated = request("alice", "s3cret");
        repeated.addHeader(TrustedHeaderBuyerAuthenticator.SECRET_HEADER, "s3cret");
        for (var request : new MockHttpServletRequest[] {request("alice", null), request("alice", "s3cre"),
                request("alice", "s3cret "), request("alice", ""), repeated}) {
            assertThatThrownBy(() -> withSecret.authenticate(request))
                    .isInstanceOfSatisfying(BuyerAuthenticationException.class,
                            e -> assertThat(e.code()).isEqualTo(ProblemCode.GATEWAY_SECRET_INVALID));
        }
    }

    @Test
    void givenTheSecretButNoBuyer_whenAuthenticated_thenMissingUser() {
        assertThatThrownBy(() -> withSecret.authenticate(request(null, "s3cret")))
                .isInstanceOf(MissingUserException.class);
    }

    @Test
    void givenNoSecretConfigured_whenAuthenticated_thenTheHeaderAloneNamesTheBuyer() {
        assertThat(TrustedHeaderBuyerAuthenticator.withoutSecret().authenticate(request("bob", null)))
                .isEqualTo(new BuyerId("bob"));
    }

    private static MockHttpServletRequest request(String buyer, String secret) {
        var request = new MockHttpServletRequest();
        if (buyer != null) {
            request.addHeader(TrustedHeaderBuyerAuthenticator.HEADER, buyer);
        }
        if (secret != null) {
            request.addHeader(TrustedHeaderBuyerAuthenticator.SECRET_HEADER, secret);
        }
        return request;
    }
}
