package io.flashsale.application.service;

import java.time.Duration;

/**
 * How reconciliation judges time and contention.
 *
 * @param grace    how long a settlement may be on its way to the hot store (an order to the hot store's confirm, an
 *                 adjustment to the hot store) before it counts as overdue and is acted on. A reservation's event is
 *                 judged by its place in the pipeline instead (ADR 29); only a reconciliation with no view of the
 *                 pipeline (no {@code RelayedEventsPort}) still takes the grace for it
 * @param attempts how often one SKU is read and repaired again when it keeps moving under the repair, before the
 *                 repair is deferred to the next run
 * @param lead     how long before its start a sale is in the hot store (the warm-up lead): the schedule reconciles
 *                 those too
 * @param redriveWindow at most one re-drive of one reservation within this window, whatever the passes find
 */
public record ReconciliationSettings(Duration grace, int attempts, Duration lead, Duration redriveWindow) {

    public static final Duration DEFAULT_REDRIVE_WINDOW = Duration.ofMinutes(10);

    public static final ReconciliationSettings DEFAULTS =
            new ReconciliationSettings(Duration.ofSeconds(60), 5, WarmUpScheduler.DEFAULT_LEAD);

    public ReconciliationSettings(Duration grace, int attempts, Duration lead) {
        this(grace, attempts, lead, DEFAULT_REDRIVE_WINDOW);
    }

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
        if (redriveWindow == null || redriveWindow.isNegative()) {
            throw new IllegalArgumentException("redriveWindow must be zero or positive, was " + redriveWindow);
        }
    }
}
