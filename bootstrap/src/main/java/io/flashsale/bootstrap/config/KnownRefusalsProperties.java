package io.flashsale.bootstrap.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * The sold-out fast path: refusals an instance remembers and answers without Redis (ADR 0023).
 *
 * @param enabled          false: every attempt asks Redis
 * @param memory           how long a sold-out SKU or an ended sale is remembered at most; returns of units forget
 *                         it at once, this bounds what a lost notice can cost
 * @param notStartedMemory how long a not-started sale is remembered at most (also never past its start)
 * @param rereadGap        the least time between two reads of one sale's accepted request keys by an instance, which
 *                         let it answer keyed attempts on a sold-out or ended sale (ADR 0069)
 */
@ConfigurationProperties("flashsale.known-refusals")
public record KnownRefusalsProperties(@DefaultValue("true") boolean enabled,
                                      @DefaultValue("1s") Duration memory,
                                      @DefaultValue("100ms") Duration notStartedMemory,
                                      @DefaultValue("1s") Duration rereadGap) {

    public KnownRefusalsProperties {
        PositiveDurations.require("flashsale.known-refusals.memory", memory);
        PositiveDurations.require("flashsale.known-refusals.not-started-memory", notStartedMemory);
        PositiveDurations.require("flashsale.known-refusals.reread-gap", rereadGap);
    }
}
