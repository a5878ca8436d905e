package io.flashsale.application.port.in;

public interface RunWarmUpScheduleUseCase {

    /**
     * One pass of the warm-up schedule: {@link ScheduleWarmUpsUseCase#warmUpDue()}, then a rebuild from the database
     * of record ({@link RebuildLedgerUseCase}) of every due sale the hot store lost, one by one, so that a failure with
     * one leaves the others rebuilt. A failed rebuild is reported in the round, not thrown; a failed warm-up is thrown
     * before any rebuild, as {@code warmUpDue} throws it.
     */
    WarmUpRound runWarmUpSchedule();
}
