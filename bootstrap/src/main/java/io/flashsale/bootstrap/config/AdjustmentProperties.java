package io.flashsale.bootstrap.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * @param proposalTtl how long a proposed stock adjustment waits for a second operator's approval (ADR 84); a proposal
 *                    left pending longer can no longer be approved and must be proposed again
 */
@ConfigurationProperties("flashsale.adjustments")
public record AdjustmentProperties(@DefaultValue("30m") Duration proposalTtl) {

    public AdjustmentProperties {
        PositiveDurations.require("flashsale.adjustments.proposal-ttl", proposalTtl);
    }
}
