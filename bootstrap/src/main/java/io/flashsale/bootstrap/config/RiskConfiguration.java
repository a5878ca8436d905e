package io.flashsale.bootstrap.config;

import io.flashsale.adapter.mysql.MysqlBlocklist;
import io.flashsale.adapter.redis.local.CaffeineDeviceSightings;
import io.flashsale.adapter.scheduling.PeriodicLoop;
import io.flashsale.application.blocklist.port.out.BlocklistChangesPort;
import io.flashsale.application.blocklist.service.BlocklistService;
import io.flashsale.application.reservation.service.RiskControl;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Clock;

/**
 * The risk control before the hot store (ADR 0081): the blocklist read from MySQL into every instance's memory, read
 * again at once when a change is announced on Redis pub/sub and every {@code refresh-interval} whatever was heard;
 * the device limit counted per instance in Caffeine.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RiskProperties.class)
public class RiskConfiguration {

    /** Holds the list as read at start (an empty one when the database cannot be read yet: the loop reads again). */
    @Bean
    RiskControl riskControl(MysqlBlocklist blocklist, RiskProperties properties) {
        RiskProperties.Device device = properties.device();
        RiskControl risk = new RiskControl(blocklist, device.maxBuyers() == 0 ? null
                : new CaffeineDeviceSightings(device.window(), device.trackedDevices()), device.maxBuyers());
        risk.refresh();
        return risk;
    }

    @Bean
    BlocklistService blocklistService(MysqlBlocklist blocklist, BlocklistChangesPort changes, Clock clock) {
        return new BlocklistService(blocklist, changes, clock);
    }

    /** Every instance reads the list on its own: a notice wakes the loop, the interval is the safety net. */
    @Bean
    PeriodicLoop blocklistRefreshLoop(RiskControl risk, BlocklistChangesPort changes, RiskProperties properties) {
        PeriodicLoop loop = new PeriodicLoop("blocklist-refresh", () -> {
            risk.refresh();
            return false;
        }, properties.blocklist().refreshInterval(), true);
        changes.subscribe(loop::wake);
        return loop;
    }
}
