package io.flashsale.bootstrap.config;

import io.flashsale.application.order.service.NewsDrivenRelay;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * The outbox relay of this instance.
 *
 * @param enabled        false: this instance relays nothing (another one must), e.g. a pure order-consumer node
 * @param batchSize      outbox entries per activity and pass (reserve calls of 1 to 64 reservations each, ADR 107)
 * @param staleAfter     how long an entry may stay pending with a relay before another relay takes it over
 * @param interval       the pause after a pass that found nothing to relay
 * @param failureBackoff the pause after a pass that failed (broker or Redis unreachable)
 * @param sweepEvery     a sweep of every registered outbox, the safety net under the outbox news, starts at most this often
 * @param sweepRate      outboxes a sweep probes per second at most (one XINFO GROUPS each)
 */
@ConfigurationProperties("flashsale.relay")
public record RelayProperties(@DefaultValue("true") boolean enabled,
                              @DefaultValue("1000") int batchSize,
                              @DefaultValue("10s") Duration staleAfter,
                              @DefaultValue("20ms") Duration interval,
                              @DefaultValue("1s") Duration failureBackoff,
                              @DefaultValue("5s") Duration sweepEvery,
                              @DefaultValue("20") int sweepRate) {

    public RelayProperties {
        if (batchSize < 1) {
            throw new IllegalArgumentException("flashsale.relay.batch-size must be positive, was " + batchSize);
        }
        requirePositive("stale-after", staleAfter);
        requirePositive("interval", interval);
        requirePositive("failure-backoff", failureBackoff);
        requirePositive("sweep-every", sweepEvery);
        if (sweepRate < 1) {
            throw new IllegalArgumentException("flashsale.relay.sweep-rate must be positive, was " + sweepRate);
        }
    }

    public NewsDrivenRelay.Sweep sweep() {
        return new NewsDrivenRelay.Sweep(sweepEvery, sweepRate);
    }

    private static void requirePositive(String name, Duration value) {
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException("flashsale.relay." + name + " must be positive, was " + value);
        }
    }
}
