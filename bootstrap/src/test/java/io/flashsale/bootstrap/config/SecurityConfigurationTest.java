package io.flashsale.bootstrap.config;

import io.flashsale.adapter.web.security.AdminCredentials;
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
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@ExtendWith(OutputCaptureExtension.class)
class SecurityConfigurationTest {

    static final String LONG_ENOUGH = "configured-token-of-thirty-two-ch";
    static final String OLIVIA_TOKEN = "olivia-token-0123456789abcdefghijk";
    static final String PETER_TOKEN = "peter-token-0123456789abcdefghijkl";

    private final SecurityConfiguration configuration = new SecurityConfiguration();

    @TempDir
    Path directory;

    private AdminProperties properties(String token, AdminProperties.Operator... operators) {
        return new AdminProperties(token, List.of(operators), directory.resolve("data/admin-token"), 10,
                Duration.ofMinutes(1));
    }

    @Test
    void givenAConfiguredToken_whenTheBeanIsMade_thenThatTokenIsTheOperatorNamedAdmin() {
        AdminCredentials credentials = configuration.adminCredentials(properties(" " + LONG_ENOUGH + " "));

        assertThat(credentials.operatorOf(LONG_ENOUGH)).contains("admin");
        assertThat(credentials.operatorOf("other")).isEmpty();
    }

    @Test
    void givenNamedOperatorsBesideTheToken_thenEachTokenNamesItsOwnOperator() {
        AdminCredentials credentials = configuration.adminCredentials(properties(LONG_ENOUGH,
                new AdminProperties.Operator("olivia", OLIVIA_TOKEN),
                new AdminProperties.Operator("peter", " " + PETER_TOKEN + " ")));

        assertThat(credentials.names()).containsExactly("admin", "olivia", "peter");
        assertThat(credentials.operatorOf(LONG_ENOUGH)).contains("admin");
        assertThat(credentials.operatorOf(OLIVIA_TOKEN)).contains("olivia");
        assertThat(credentials.operatorOf(PETER_TOKEN)).contains("peter");
        assertThat(credentials.operatorOf("olivia")).isEmpty();
    }

    @Test
    void givenOnlyNamedOperators_thenNoTokenIsMadeUpAndNoOneIsAdmin() {
        AdminCredentials credentials = configuration.adminCredentials(properties(null,
                new AdminProperties.Operator("olivia", OLIVIA_TOKEN)));

        assertThat(credentials.names()).containsExactly("olivia");
        assertThat(directory.resolve("data/admin-token")).doesNotExist();
    }

    @Test
    void givenAConfiguredTokenShorterThan32Characters_thenTheServiceRefusesToStartNamingTheProperty() {
        assertThatThrownBy(() -> configuration.adminCredentials(properties("change-me-before-sale-day")))
                .hasMessageContaining("flashsale.admin.token").hasMessageContaining("FLASHSALE_ADMIN_TOKEN")
                .hasMessageContaining("32");
        assertThat(configuration.adminCredentials(properties("x".repeat(32))).operatorOf("x".repeat(32)))
                .contains("admin");
    }

    @Test
    void givenAnOperatorWithAShortOrMissingToken_thenTheServiceRefusesToStartNamingTheProperty() {
        for (String token : new String[] {null, "", "short-token"}) {
            assertThatThrownBy(() -> configuration.adminCredentials(properties(LONG_ENOUGH,
                    new AdminProperties.Operator("olivia", OLIVIA_TOKEN),
                    new AdminProperties.Operator("peter", token))))
                    .as("token %s", token)
                    .hasMessageContaining("flashsale.admin.operators[1].token").hasMessageContaining("32");
        }
    }

    @Test
    void givenOperatorsThatCannotBeToldApart_thenTheServiceRefusesToStart() {
        assertThatThrownBy(() -> configuration.adminCredentials(properties(null,
                new AdminProperties.Operator("olivia", OLIVIA_TOKEN),
                new AdminProperties.Operator("olivia", PETER_TOKEN))))
                .hasMessageContaining("flashsale.admin.operators[1].name");
        assertThatThrownBy(() -> configuration.adminCredentials(properties(LONG_ENOUGH,
                new AdminProperties.Operator("admin", PETER_TOKEN))))
                .hasMessageContaining("flashsale.admin.operators[0].name").hasMessageContaining("flashsale.admin.token");
        assertThatThrownBy(() -> configuration.adminCredentials(properties(OLIVIA_TOKEN,
                new AdminProperties.Operator("olivia", OLIVIA_TOKEN))))
                .hasMessageContaining("token of another operator").hasMessageNotContaining(OLIVIA_TOKEN);
        for (String name : new String[] {null, "", "olivia smith", "x".repeat(65), "ölivia"}) {
            assertThatThrownBy(() -> configuration.adminCredentials(properties(null,
                    new AdminProperties.Operator(name, OLIVIA_TOKEN))))
                    .as("name %s", name).hasMessageContaining("flashsale.admin.operators[0].name");
        }
    }

    @Test
    void givenNoToken_whenTheBeanIsMade_thenAGeneratedOneGuardsAdminCallsAndOnlyItsFileIsLogged(CapturedOutput output)
            throws IOException {
        for (String blank : new String[] {null, "", "   "}) {
            AdminCredentials credentials = configuration.adminCredentials(properties(blank));

            Path file = directory.resolve("data/admin-token");
            String written = Files.readString(file).strip();
            assertThat(credentials.operatorOf(written)).contains("admin");
            assertThat(written).hasSizeGreaterThanOrEqualTo(32);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
            assertThat(output.getAll()).contains(file.toString()).doesNotContain(written);
            assertThat(credentials.operatorOf("")).isEmpty();
            assertThat(credentials.operatorOf(blank)).isEmpty();
        }
    }

    @Test
    void thePropertiesNeverPrintATokenAndNoOperatorsMeansAnEmptyList() {
        AdminProperties properties = properties(LONG_ENOUGH, new AdminProperties.Operator("olivia", OLIVIA_TOKEN));

        assertThat(properties.toString()).contains("olivia").doesNotContain(LONG_ENOUGH).doesNotContain(OLIVIA_TOKEN);
        assertThat(new AdminProperties(null, null, directory, 1, Duration.ofMinutes(1)).operators()).isEmpty();
    }
}
