package io.flashsale.bootstrap.config;

import io.flashsale.adapter.web.security.AdminAttempts;
import io.flashsale.adapter.web.security.AdminCredentials;
import io.flashsale.adapter.web.security.AdminGate;
import io.flashsale.adapter.web.security.AdminToken;
import io.flashsale.adapter.web.security.FailedAdminAttempts;
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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AdminProperties.class)
public class SecurityConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(SecurityConfiguration.class);

    /**
     * Every configured token must be long enough to resist guessing, and each names one operator: two operators sharing
     * a token could not be told apart. Without any token (demo runs) the service makes one up for
     * {@value AdminProperties#TOKEN_OPERATOR} and writes it to a file only its owner can read, so the token itself
     * never reaches a log.
     */
    @Bean
    AdminCredentials adminCredentials(AdminProperties properties) {
        Map<String, AdminToken> operators = new LinkedHashMap<>();
        Set<String> tokens = new HashSet<>();
        String configured = properties.token();
        if (configured != null && !configured.isBlank()) {
            add(operators, tokens, AdminProperties.TOKEN_OPERATOR,
                    required("flashsale.admin.token (FLASHSALE_ADMIN_TOKEN)", configured));
        }
        for (int i = 0; i < properties.operators().size(); i++) {
            AdminProperties.Operator operator = properties.operators().get(i);
            String property = "flashsale.admin.operators[" + i + "]";
            if (operator.name() == null || !AdminCredentials.NAME.matcher(operator.name()).matches()) {
                throw new IllegalStateException(property + ".name must match " + AdminCredentials.NAME);
            }
            if (operators.containsKey(operator.name())) {
                throw new IllegalStateException(property + ".name " + operator.name() + " names a second operator"
                        + (AdminProperties.TOKEN_OPERATOR.equals(operator.name())
                        ? " (flashsale.admin.token's holder is " + AdminProperties.TOKEN_OPERATOR + ")" : ""));
            }
            add(operators, tokens, operator.name(), required(property + ".token", operator.token()));
        }
        if (operators.isEmpty()) {
            String generated = AdminToken.generate();
            Path file = writeOwnerOnly(properties.tokenFile(), generated);
            LOG.warn("No admin token configured (flashsale.admin.token / FLASHSALE_ADMIN_TOKEN); generated one for this "
                    + "run in {} (readable by its owner only)", file);
            operators.put(AdminProperties.TOKEN_OPERATOR, AdminToken.of(generated));
        }
        return AdminCredentials.of(operators);
    }

    private static String required(String property, String configured) {
        String token = configured == null ? "" : configured.strip();
        if (token.length() < AdminProperties.MINIMUM_LENGTH) {
            throw new IllegalStateException(property + " has " + token.length() + " characters; at least "
                    + AdminProperties.MINIMUM_LENGTH + " are required");
        }
        return token;
    }

    private static void add(Map<String, AdminToken> operators, Set<String> tokens, String name, String token) {
        if (!tokens.add(token)) {
            throw new IllegalStateException("admin operator " + name + " has the token of another operator: "
                    + "each operator needs a token of its own");
        }
        operators.put(name, AdminToken.of(token));
    }

    @Bean
    AdminGate adminGate(AdminCredentials credentials, AdminProperties properties, MeterRegistry meters) {
        AdminAttempts attempts = new FailedAdminAttempts(properties.failuresAllowed(), properties.failuresWindow(),
                meters);
        return new AdminGate(credentials, attempts);
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
