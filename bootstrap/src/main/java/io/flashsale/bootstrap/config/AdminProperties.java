package io.flashsale.bootstrap.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * @param token          the bearer token of the operator named {@value #TOKEN_OPERATOR} ({@code FLASHSALE_ADMIN_TOKEN}),
 *                       at least {@value #MINIMUM_LENGTH} characters; blank with no {@code operators} means "make one
 *                       up" (demo runs)
 * @param operators      named operators, each with a token of its own ({@code flashsale.admin.operators[0].name},
 *                       {@code ...[0].token}); the token that authenticates a call names who made it
 * @param tokenFile      where a made-up token is written, readable by its owner only; only this path is logged
 * @param failuresAllowed wrong tokens a client address may send within {@code failuresWindow} before it must wait
 * @param failuresWindow the time over which the allowance refills
 */
@ConfigurationProperties("flashsale.admin")
public record AdminProperties(String token, @DefaultValue List<Operator> operators,
                              @DefaultValue("./data/admin-token") Path tokenFile,
                              @DefaultValue("10") long failuresAllowed, @DefaultValue("1m") Duration failuresWindow) {

    public static final int MINIMUM_LENGTH = 32;
    /** The name {@code flashsale.admin.token}'s holder acts under. */
    public static final String TOKEN_OPERATOR = "admin";

    public AdminProperties {
        operators = operators == null ? List.of() : List.copyOf(operators);
        if (failuresAllowed < 1) {
            throw new IllegalArgumentException("flashsale.admin.failures-allowed must be at least 1");
        }
        PositiveDurations.require("flashsale.admin.failures-window", failuresWindow);
    }

    /** One named operator and its own bearer token. */
    public record Operator(String name, String token) {

        @Override
        public String toString() {
            return "Operator[name=" + name + ", token=****]";
        }
    }

    @Override
    public String toString() {
        return "AdminProperties[token=****, operators=" + operators + ", tokenFile=" + tokenFile + "]";
    }
}
