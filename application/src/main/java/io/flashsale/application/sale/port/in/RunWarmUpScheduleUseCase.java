package io.flashsale.application.sale.port.in;

import io.flashsale.application.reconciliation.port.in.RebuildLedgerUseCase;
import io.flashsale.application.sale.model.WarmUpRound;

public interface RunWarmUpScheduleUseCase {

    /**
     * One pass of the warm-up schedule: {@link ScheduleWarmUpsUseCase#warmUpDue()}, then a rebuild from the database
     * of record ({@link RebuildLedgerUseCase}) of every due sale the hot store lost, one by one, so that a failure with
     * one leaves the others rebuilt. A failed rebuild is reported in the round, not thrown; a failed warm-up is thrown
     * before any rebuild, as {@code warmUpDue} throws it.
     */
    WarmUpRound runWarmUpSchedule();
}
