package io.flashsale.application.sale.service;

import io.flashsale.application.reconciliation.port.in.RebuildLedgerUseCase;
import io.flashsale.application.sale.model.WarmUpPass;
import io.flashsale.application.sale.model.WarmUpRound;
import io.flashsale.application.sale.port.in.RunWarmUpScheduleUseCase;
import io.flashsale.application.sale.port.in.ScheduleWarmUpsUseCase;
import io.flashsale.domain.activity.ActivityId;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The warm-up schedule's pass: sales due are warmed up, and those the hot store lost (they have sales already, so
 * loading their totals would sell those units again) are rebuilt from the database of record instead.
 */
public class WarmUpSchedule implements RunWarmUpScheduleUseCase {

    private final ScheduleWarmUpsUseCase warmUps;
    private final RebuildLedgerUseCase rebuilds;

    public WarmUpSchedule(ScheduleWarmUpsUseCase warmUps, RebuildLedgerUseCase rebuilds) {
        this.warmUps = warmUps;
        this.rebuilds = rebuilds;
    }

    @Override
    public WarmUpRound runWarmUpSchedule() {
        WarmUpPass pass = warmUps.warmUpDue();
        List<WarmUpRound.Rebuild> rebuilt = new ArrayList<>();
        RuntimeException failure = null;
        for (ActivityId lost : pass.awaitingRebuild()) {
            try {
                rebuilt.add(new WarmUpRound.Rebuild(lost, rebuilds.rebuild(lost)));
            } catch (RuntimeException e) {
                failure = addTo(failure, e);
            }
        }
        return new WarmUpRound(pass.warmedUp(), rebuilt, Optional.ofNullable(failure));
    }

    private static RuntimeException addTo(RuntimeException first, RuntimeException next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }
}
