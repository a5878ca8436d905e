package io.flashsale.application.sale.port.in;

import io.flashsale.application.sale.model.WarmUpPass;

import java.time.Duration;

public interface ScheduleWarmUpsUseCase {

    /** How long before its start a sale is loaded, unless configured otherwise; reconciliation looks as far ahead. */
    Duration DEFAULT_LEAD = Duration.ofSeconds(60);

    /**
     * One pass of the warm-up schedule: loads every activity that is not archived, opens within the lead time or is
     * open now ({@code startsAt - lead <= now < endsAt}) and is not in the hot store yet. Safe to run on every
     * instance at once: loading is idempotent and never resets a loaded ledger.
     */
    WarmUpPass warmUpDue();
}
