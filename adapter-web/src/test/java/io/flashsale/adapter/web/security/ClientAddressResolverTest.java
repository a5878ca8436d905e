package io.flashsale.adapter.web.security;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ClientAddressResolverTest {

    @Test
    void theRemoteAddressIsTheClientInCanonicalForm() {
        assertThat(ClientAddressResolver.of("203.0.113.9", false, false).value()).isEqualTo("203.0.113.9");
        assertThat(ClientAddressResolver.of("2001:DB8:0:0::1", false, false).value()).isEqualTo("2001:db8:0:0:0:0:0:1");
        assertThat(ClientAddressResolver.of("::ffff:203.0.113.9", false, false).value()).isEqualTo("203.0.113.9");
    }

    @Test
    void whatIsNoAddressSharesOneKeyInsteadOfEscapingTheLimit() {
        for (String garbage : new String[] {"evil'); return 1 --", "deadbeef", "cafe", "1.2.3", "01.2.3.4", "0x7f.1",
                "256.1.1.1", "::g", "localhost", "", null}) {
            assertThat(ClientAddressResolver.of(garbage, false, true)).as(garbage).isEqualTo(ClientAddressResolver.UNPARSED);
        }
    }

    @Test
    void loopbackIsCountedUnlessExemptAndThenOnlyAsTheConnectionsOwnAddress() {
        assertThat(ClientAddressResolver.of("127.0.0.1", false, false).value()).isEqualTo("127.0.0.1");
        assertThat(ClientAddressResolver.of("127.0.0.1", false, true)).isEqualTo(ClientAddress.NONE);
        assertThat(ClientAddressResolver.of("0:0:0:0:0:0:0:1", false, true)).isEqualTo(ClientAddress.NONE);
        assertThat(ClientAddressResolver.of("127.0.0.1", true, true).value()).as("forwarded").isEqualTo("127.0.0.1");
    }
}
