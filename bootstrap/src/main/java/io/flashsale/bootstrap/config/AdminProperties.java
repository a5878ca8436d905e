package io.flashsale.bootstrap.config;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** @param token the bearer token of admin calls ({@code FLASHSALE_ADMIN_TOKEN}); blank means "make one up" */
@ConfigurationProperties("flashsale.admin")
public record AdminProperties(String token) {

    @Override
    public String toString() {
        return "AdminProperties[token=****]";
    }
}
