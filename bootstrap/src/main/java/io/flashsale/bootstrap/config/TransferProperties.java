package io.flashsale.bootstrap.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * The sweep that finishes stock transfers between a sale's slices left unfinished by a crash or an outage (ADR 109).
 *
 * @param sweepEnabled  false: this instance finishes no transfer left unfinished (another one must)
 * @param sweepInterval how often unfinished transfers are looked for; one instance at a time
 */
@ConfigurationProperties("flashsale.transfers")
public record TransferProperties(@DefaultValue("true") boolean sweepEnabled,
                                 @DefaultValue("5s") Duration sweepInterval) {

    public TransferProperties {
        PositiveDurations.require("flashsale.transfers.sweep-interval", sweepInterval);
    }
}
