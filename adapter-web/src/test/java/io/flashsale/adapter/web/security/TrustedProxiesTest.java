package io.flashsale.adapter.web.security;

import org.apache.catalina.valves.RemoteIpValve;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TrustedProxiesTest {

    @Test
    void bareAddressesBecomeSingleAddressBlocks() {
        var proxies = TrustedProxies.of("p", List.of("10.0.0.0/8", " 192.0.2.7 ", "2001:DB8::/32", "::1"));

        assertThat(proxies.blocks()).containsExactly("10.0.0.0/8", "192.0.2.7/32", "2001:db8:0:0:0:0:0:0/32",
                "0:0:0:0:0:0:0:1/128");
    }

    @Test
    void noneByDefaultSoTheValveBelievesNoOne() {
        var valve = new RemoteIpValve();
        TrustedProxies.of("p", null).applyTo(valve);

        assertThat(valve.getInternalProxies()).isNull();
        assertThat(valve.getTrustedProxies()).isNull();
    }

    @Test
    void whatIsNoBlockIsRefusedNamingTheProperty() {
        for (String bad : new String[] {"10.0.0.0/33", "10.0.0.0/x", "10.*", "proxy.example", "::1/129"}) {
            assertThatThrownBy(() -> TrustedProxies.of("flashsale.http.trusted-proxies", List.of(bad)))
                    .as(bad).hasMessageContaining("flashsale.http.trusted-proxies").hasMessageContaining(bad);
        }
    }
}
