package io.flashsale.application.reconciliation.service;

import io.flashsale.application.sale.port.in.ScheduleWarmUpsUseCase;

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
 * @param auditPages    pages of holdings (a hundred fields each in Redis) the rolling audit reads per SKU and look, so
 *                      that drift which keeps a SKU's sum of holdings is found within a bounded number of passes
 *                      (ADR 59); 0 turns the audit off
 * @param autoRepairLimit the largest residual, in units ({@link io.flashsale.domain.reconciliation.SkuReckoning#driftUnits}),
 *                        a repair rewrites without an operator; a larger one is reported NEEDS_REVIEW and left as found
 *                        until an operator approves its repair (ADR 85), unless its repair loosens what the hot store
 *                        offers by no more than this ({@code SkuReckoning#loosenedUnits}, ADR 99)
 */
public record ReconciliationSettings(Duration grace, int attempts, Duration lead, Duration redriveWindow,
                                     int auditPages, long autoRepairLimit) {

    public static final Duration DEFAULT_REDRIVE_WINDOW = Duration.ofMinutes(10);
    /** 5,000 holdings a look: a sale of 1,000,000 buyers is audited whole within about 210 steady passes. */
    public static final int DEFAULT_AUDIT_PAGES = 50;
    /** Drift of up to ten units is repaired at once, as it always was; more waits for an operator (ADR 85). */
    public static final long DEFAULT_AUTO_REPAIR_LIMIT = 10;

    public static final ReconciliationSettings DEFAULTS =
            new ReconciliationSettings(Duration.ofSeconds(60), 5, ScheduleWarmUpsUseCase.DEFAULT_LEAD);

    public ReconciliationSettings(Duration grace, int attempts, Duration lead) {
        this(grace, attempts, lead, DEFAULT_REDRIVE_WINDOW);
    }

    public ReconciliationSettings(Duration grace, int attempts, Duration lead, Duration redriveWindow) {
        this(grace, attempts, lead, redriveWindow, DEFAULT_AUDIT_PAGES);
    }

    public ReconciliationSettings(Duration grace, int attempts, Duration lead, Duration redriveWindow,
                                  int auditPages) {
        this(grace, attempts, lead, redriveWindow, auditPages, DEFAULT_AUTO_REPAIR_LIMIT);
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
        if (auditPages < 0) {
            throw new IllegalArgumentException("auditPages must be zero or positive, was " + auditPages);
        }
        if (autoRepairLimit < 0) {
            throw new IllegalArgumentException("autoRepairLimit must be zero or positive, was " + autoRepairLimit);
        }
    }
}
