package io.flashsale.bootstrap.config;

import io.flashsale.adapter.web.security.AdminToken;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SecurityConfigurationTest {

    private final SecurityConfiguration configuration = new SecurityConfiguration();

    @Test
    void givenAConfiguredToken_whenTheBeanIsMade_thenThatTokenIsTheAdminsToken() {
        AdminToken token = configuration.adminToken(new AdminProperties(" configured-token "));

        assertThat(token.matches("configured-token")).isTrue();
        assertThat(token.matches("other")).isFalse();
    }

    @Test
    void givenNoToken_whenTheBeanIsMade_thenAGeneratedOneGuardsAdminCalls() {
        for (String blank : new String[] {null, "", "   "}) {
            AdminToken token = configuration.adminToken(new AdminProperties(blank));

            assertThat(token.matches("")).isFalse();
            assertThat(token.matches(blank)).isFalse();
            assertThat(token.matches("null")).isFalse();
        }
    }
}
