package io.flashsale.adapter.web.security;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ClientAddressResolverTest {

    @Test
    void theTrustedHeadersLastEntryIsTheClient() {
        assertThat(ClientAddressResolver.of("6.6.6.6, 203.0.113.9", "10.0.0.2").value()).isEqualTo("203.0.113.9");
        assertThat(ClientAddressResolver.of("2001:DB8::1", "10.0.0.2").value()).isEqualTo("2001:db8::1");
    }

    @Test
    void withoutAUsableHeaderTheConnectionsAddressCounts() {
        assertThat(ClientAddressResolver.of(null, "10.0.0.2").value()).isEqualTo("10.0.0.2");
        assertThat(ClientAddressResolver.of("", "10.0.0.2").value()).isEqualTo("10.0.0.2");
        assertThat(ClientAddressResolver.of("evil'); return 1 --", "10.0.0.2").value()).isEqualTo("10.0.0.2");
    }

    @Test
    void loopbackIsExempt() {
        assertThat(ClientAddressResolver.of(null, "127.0.0.1")).isEqualTo(ClientAddress.NONE);
        assertThat(ClientAddressResolver.of(null, "0:0:0:0:0:0:0:1")).isEqualTo(ClientAddress.NONE);
        assertThat(ClientAddressResolver.of("::1", "10.0.0.2")).isEqualTo(ClientAddress.NONE);
        assertThat(ClientAddressResolver.of(null, null)).isEqualTo(ClientAddress.NONE);
    }
}
