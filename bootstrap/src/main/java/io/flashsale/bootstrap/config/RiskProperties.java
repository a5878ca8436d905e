package io.flashsale.bootstrap.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * The risk control before the hot store (ADR 0081).
 *
 * @param blocklist how each instance keeps its copy of the blocklist
 * @param device    where the device id comes from, and how many buyers one device may carry
 */
@ConfigurationProperties("flashsale.risk")
public record RiskProperties(@DefaultValue Blocklist blocklist, @DefaultValue Device device) {

    /**
     * @param refreshInterval how often the whole list is read again, whatever the notices said: the safety net for a
     *                        notice lost while the pub/sub channel was down
     */
    public record Blocklist(@DefaultValue("30s") Duration refreshInterval) {

        public Blocklist {
            PositiveDurations.require("flashsale.risk.blocklist.refresh-interval", refreshInterval);
        }
    }

    /**
     * @param source         {@code header}: the request header {@code header} (the client's word); {@code claim}: the
     *                       buyer token's claim {@code claim} (with {@code flashsale.security.buyer-auth=jwt})
     * @param maxBuyers      how many distinct buyers one device may carry within {@code window} on one instance; past
     *                       it the device is refused {@code BLOCKED} for the rest of the window. 0 (the default): off
     * @param window         how long a device's buyers are counted from its first sighting
     * @param trackedDevices how many devices one instance counts at most (the least used are forgotten first)
     */
    public record Device(@DefaultValue("header") Source source, @DefaultValue("X-Device-Id") String header,
                         @DefaultValue("device_id") String claim, @DefaultValue("0") int maxBuyers,
                         @DefaultValue("10m") Duration window, @DefaultValue("100000") long trackedDevices) {

        public Device {
            if (maxBuyers < 0) {
                throw new IllegalArgumentException("flashsale.risk.device.max-buyers must not be negative");
            }
            if (trackedDevices < 1) {
                throw new IllegalArgumentException("flashsale.risk.device.tracked-devices must be at least 1");
            }
            PositiveDurations.require("flashsale.risk.device.window", window);
            if (header == null || header.isBlank() || claim == null || claim.isBlank()) {
                throw new IllegalArgumentException("flashsale.risk.device.header and .claim must name something");
            }
        }
    }

    public enum Source { HEADER, CLAIM }
}
