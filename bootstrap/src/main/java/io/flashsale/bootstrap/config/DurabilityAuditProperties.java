package io.flashsale.bootstrap.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * The audit of acknowledged reservations after a Redis restart (ADR 0047).
 *
 * @param enabled     false: nothing is journaled and no restart is watched for
 * @param journalSize the most recent reservations this instance acknowledged that it remembers (rounded up to a power
 *                    of two; about 200-300 bytes each): what a restart can be audited against
 * @param interval    how often the instance asks Redis for its incarnation ({@code INFO server}) and moves a pending
 *                    audit on
 */
@ConfigurationProperties("flashsale.durability-audit")
public record DurabilityAuditProperties(@DefaultValue("true") boolean enabled,
                                        @DefaultValue("65536") int journalSize,
                                        @DefaultValue("1s") Duration interval) {

    public DurabilityAuditProperties {
        PositiveDurations.require("flashsale.durability-audit.interval", interval);
        if (journalSize < 1 || journalSize > 1 << 30) {
            throw new IllegalArgumentException("flashsale.durability-audit.journal-size must be within 1 and 2^30");
        }
    }
}
