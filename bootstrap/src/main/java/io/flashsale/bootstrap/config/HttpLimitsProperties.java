package io.flashsale.bootstrap.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import java.util.List;

/**
 * @param maxRequestBodySize larger bodies get 413; the biggest legal request is a few kilobytes
 * @param trustedProxies     CIDR blocks or addresses of the proxies whose {@code X-Forwarded-For} is believed; empty
 *                           (the default): none, the connection's own address is the client's
 */
@ConfigurationProperties("flashsale.http")
public record HttpLimitsProperties(@DefaultValue("64KB") DataSize maxRequestBodySize,
                                   @DefaultValue List<String> trustedProxies) {

    static final String TRUSTED_PROXIES = "flashsale.http.trusted-proxies";
}
