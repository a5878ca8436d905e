package io.flashsale.bootstrap.config;

import io.flashsale.adapter.web.security.AdminAttempts;
import io.flashsale.adapter.web.security.AdminGate;
import io.flashsale.adapter.web.security.AdminToken;
import io.flashsale.bootstrap.ratelimit.FailedAdminAttempts;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AdminProperties.class)
public class SecurityConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(SecurityConfiguration.class);

    /**
     * A configured token must be long enough to resist guessing; without one (demo runs) the service makes one up and
     * writes it to a file only its owner can read, so the token itself never reaches a log.
     */
    @Bean
    AdminToken adminToken(AdminProperties properties) {
        String configured = properties.token();
        if (configured != null && !configured.isBlank()) {
            String token = configured.strip();
            if (token.length() < AdminProperties.MINIMUM_LENGTH) {
                throw new IllegalStateException("flashsale.admin.token (FLASHSALE_ADMIN_TOKEN) has " + token.length()
                        + " characters; at least " + AdminProperties.MINIMUM_LENGTH + " are required");
            }
            return AdminToken.of(token);
        }
        String generated = AdminToken.generate();
        Path file = writeOwnerOnly(properties.tokenFile(), generated);
        LOG.warn("No admin token configured (flashsale.admin.token / FLASHSALE_ADMIN_TOKEN); generated one for this run "
                + "in {} (readable by its owner only)", file);
        return AdminToken.of(generated);
    }

    @Bean
    AdminGate adminGate(AdminToken token, AdminProperties properties, MeterRegistry meters) {
        AdminAttempts attempts = new FailedAdminAttempts(properties.failuresAllowed(), properties.failuresWindow(),
                meters);
        return new AdminGate(token, attempts);
    }

    /** Written beside its final place and moved there, so no reader ever sees a file with looser permissions. */
    static Path writeOwnerOnly(Path file, String content) {
        Path target = file.toAbsolutePath().normalize();
        try {
            Files.createDirectories(target.getParent());
            Path temporary = Files.createTempFile(target.getParent(), ".admin-token-", ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(temporary, content + System.lineSeparator(), StandardCharsets.UTF_8);
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the generated admin token to " + target
                    + " (flashsale.admin.token-file)", e);
        }
    }
}
