package io.flashsale.bootstrap.config;

import io.flashsale.adapter.web.security.AdminToken;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@ExtendWith(OutputCaptureExtension.class)
class SecurityConfigurationTest {

    static final String LONG_ENOUGH = "configured-token-of-thirty-two-ch";

    private final SecurityConfiguration configuration = new SecurityConfiguration();

    @TempDir
    Path directory;

    private AdminProperties properties(String token) {
        return new AdminProperties(token, directory.resolve("data/admin-token"), 10, Duration.ofMinutes(1));
    }

    @Test
    void givenAConfiguredToken_whenTheBeanIsMade_thenThatTokenIsTheAdminsToken() {
        AdminToken token = configuration.adminToken(properties(" " + LONG_ENOUGH + " "));

        assertThat(token.matches(LONG_ENOUGH)).isTrue();
        assertThat(token.matches("other")).isFalse();
    }

    @Test
    void givenAConfiguredTokenShorterThan32Characters_thenTheServiceRefusesToStartNamingTheProperty() {
        assertThatThrownBy(() -> configuration.adminToken(properties("change-me-before-sale-day")))
                .hasMessageContaining("flashsale.admin.token").hasMessageContaining("FLASHSALE_ADMIN_TOKEN")
                .hasMessageContaining("32");
        assertThat(configuration.adminToken(properties("x".repeat(32))).matches("x".repeat(32))).isTrue();
    }

    @Test
    void givenNoToken_whenTheBeanIsMade_thenAGeneratedOneGuardsAdminCallsAndOnlyItsFileIsLogged(CapturedOutput output)
            throws IOException {
        for (String blank : new String[] {null, "", "   "}) {
            AdminToken token = configuration.adminToken(properties(blank));

            Path file = directory.resolve("data/admin-token");
            String written = Files.readString(file).strip();
            assertThat(token.matches(written)).isTrue();
            assertThat(written).hasSizeGreaterThanOrEqualTo(32);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
            assertThat(output.getAll()).contains(file.toString()).doesNotContain(written);
            assertThat(token.matches("")).isFalse();
            assertThat(token.matches(blank)).isFalse();
        }
    }
}
