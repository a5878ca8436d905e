package io.flashsale.application.service;

import java.time.Duration;

/**
 * How reconciliation judges time and contention.
 *
 * @param grace    how long a move between the stores may be on its way (a reservation's event to its order, an order to
 *                 the hot store's confirm, an adjustment to the hot store) before it counts as lost and is acted on; the
 *                 order pipeline's worst latency under load plus a margin
 * @param attempts how often one SKU is read and repaired again when it keeps moving under the repair, before the
 *                 repair is deferred to the next run
 * @param lead     how long before its start a sale is in the hot store (the warm-up lead): the schedule reconciles
 *                 those too
 */
public record ReconciliationSettings(Duration grace, int attempts, Duration lead) {

    public static final ReconciliationSettings DEFAULTS =
            new ReconciliationSettings(Duration.ofSeconds(60), 5, WarmUpScheduler.DEFAULT_LEAD);

    public ReconciliationSettings {
        if (grace == null || grace.isNegative()) {
            throw new IllegalArgumentException("grace must be zero or positive, was " + grace);
        }
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be at least 1, was " + attempts);
        }
        if (lead == null || lead.isNegative()) {
            throw new IllegalArgumentException("lead must be zero or positive, was " + lead);
        }
    }
}
