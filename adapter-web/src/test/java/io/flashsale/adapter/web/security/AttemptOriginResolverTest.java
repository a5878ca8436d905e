package io.flashsale.adapter.web.security;

import io.flashsale.application.reservation.model.AttemptOrigin;
import io.flashsale.domain.risk.DeviceId;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;

import static org.assertj.core.api.Assertions.assertThat;

class AttemptOriginResolverTest {

    private static MockHttpServletRequest from(String remoteAddress) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/v1/activities/a/reservations");
        request.setRemoteAddr(remoteAddress);
        return request;
    }

    @Test
    void theAddressIsTheRemoteOneInCanonicalFormLoopbackIncluded() {
        AttemptOriginResolver resolver = AttemptOriginResolver.deviceFromHeader("X-Device-Id");

        assertThat(resolver.resolve(from("127.0.0.1"))).isEqualTo(new AttemptOrigin("127.0.0.1", null));
        assertThat(resolver.resolve(from("2001:DB8:0:0::1")).address()).isEqualTo("2001:db8:0:0:0:0:0:1");
        assertThat(resolver.resolve(from("not-an-address"))).isEqualTo(AttemptOrigin.UNKNOWN);
    }

    @Test
    void theDeviceComesFromTheConfiguredHeaderAndAMalformedOneIsNone() {
        AttemptOriginResolver resolver = AttemptOriginResolver.deviceFromHeader("X-Phone");
        MockHttpServletRequest request = from("192.0.2.1");
        request.addHeader("X-Phone", "phone-1:abc");
        request.addHeader("X-Device-Id", "ignored");
        assertThat(resolver.resolve(request).device()).isEqualTo(new DeviceId("phone-1:abc"));

        MockHttpServletRequest malformed = from("192.0.2.1");
        malformed.addHeader("X-Phone", "two words");
        assertThat(resolver.resolve(malformed).device()).isNull();
    }

    @Test
    void fromTheTokenClaimTheHeaderIsNeverRead() {
        AttemptOriginResolver resolver = AttemptOriginResolver.deviceFromTokenClaim();
        MockHttpServletRequest request = from("192.0.2.1");
        request.addHeader("X-Device-Id", "claimed-by-the-client");
        assertThat(resolver.resolve(request).device()).isNull();

        request.setAttribute(AttemptOriginResolver.DEVICE_CLAIM_ATTRIBUTE, "from-the-token");
        assertThat(resolver.resolve(request).device()).isEqualTo(new DeviceId("from-the-token"));
    }
}
