package io.flashsale.bootstrap.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * The sweep that finishes stock transfers between a sale's slices left unfinished by a crash or an outage (ADR 109).
 *
 * @param sweepEnabled  false: this instance finishes no transfer left unfinished (another one must)
 * @param sweepInterval how often unfinished transfers are looked for; one instance at a time
 * @param borrowWait    how long an attempt whose home slice is short waits for the borrow another attempt started
 *                      on this instance before it is told to try again
 * @param tryAgainAfter the wait a buyer told to try again (503 {@code TRY_AGAIN}) is given
 * @param rebalanceEnabled  false: this instance does not move units between slices toward demand (another one must)
 * @param rebalanceInterval how often the open sales in slices are looked at; one instance at a time
 */
@ConfigurationProperties("flashsale.transfers")
public record TransferProperties(@DefaultValue("true") boolean sweepEnabled,
                                 @DefaultValue("5s") Duration sweepInterval,
                                 @DefaultValue("200ms") Duration borrowWait,
                                 @DefaultValue("100ms") Duration tryAgainAfter,
                                 @DefaultValue("true") boolean rebalanceEnabled,
                                 @DefaultValue("5s") Duration rebalanceInterval) {

    public TransferProperties {
        PositiveDurations.require("flashsale.transfers.sweep-interval", sweepInterval);
        PositiveDurations.require("flashsale.transfers.borrow-wait", borrowWait);
        PositiveDurations.require("flashsale.transfers.try-again-after", tryAgainAfter);
        PositiveDurations.require("flashsale.transfers.rebalance-interval", rebalanceInterval);
    }
}
