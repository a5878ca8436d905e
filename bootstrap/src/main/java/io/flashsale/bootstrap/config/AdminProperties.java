package io.flashsale.bootstrap.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.nio.file.Path;
import java.time.Duration;

/**
 * @param token          the bearer token of admin calls ({@code FLASHSALE_ADMIN_TOKEN}), at least
 *                       {@value #MINIMUM_LENGTH} characters; blank means "make one up" (demo runs)
 * @param tokenFile      where a made-up token is written, readable by its owner only; only this path is logged
 * @param failuresAllowed wrong tokens a client address may send within {@code failuresWindow} before it must wait
 * @param failuresWindow the time over which the allowance refills
 */
@ConfigurationProperties("flashsale.admin")
public record AdminProperties(String token, @DefaultValue("./data/admin-token") Path tokenFile,
                              @DefaultValue("10") long failuresAllowed, @DefaultValue("1m") Duration failuresWindow) {

    public static final int MINIMUM_LENGTH = 32;

    public AdminProperties {
        if (failuresAllowed < 1) {
            throw new IllegalArgumentException("flashsale.admin.failures-allowed must be at least 1");
        }
        PositiveDurations.require("flashsale.admin.failures-window", failuresWindow);
    }

    @Override
    public String toString() {
        return "AdminProperties[token=****, tokenFile=" + tokenFile + "]";
    }
}
