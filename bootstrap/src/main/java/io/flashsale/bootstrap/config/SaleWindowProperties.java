package io.flashsale.bootstrap.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Which clock judges "not started" and "ended".
 *
 * @param clock {@code redis} (the default): Redis {@code TIME} inside the reservation script, one clock for every
 *              instance whatever their own clocks say; {@code service}: the service's own clock, for tests that hand
 *              the service a clock they move
 */
@ConfigurationProperties("flashsale.sale-window")
public record SaleWindowProperties(@DefaultValue("redis") WindowClock clock) {

    public enum WindowClock {
        REDIS, SERVICE
    }
}
