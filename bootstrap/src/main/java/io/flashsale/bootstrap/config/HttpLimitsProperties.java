package io.flashsale.bootstrap.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/** @param maxRequestBodySize larger bodies get 413; the biggest legal request is a few kilobytes */
@ConfigurationProperties("flashsale.http")
public record HttpLimitsProperties(@DefaultValue("64KB") DataSize maxRequestBodySize) {
}
