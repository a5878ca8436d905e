package io.flashsale.application.reconciliation.service;

import io.flashsale.application.reconciliation.model.RebuildOutcome;
import io.flashsale.application.reconciliation.port.in.RebuildLedgerUseCase;
import io.flashsale.application.sale.port.out.ActivityArchivesPort;
import io.flashsale.application.sale.port.out.ActivityLookupPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SalePhase;

import java.time.Clock;

/**
 * Loads a sale the hot store lost from the database of record again before it sells another unit, once what was in
 * flight has landed there (ADR 30); a sale that has ended is left alone. Of a sale in slices, each slice the hot store
 * lost is rebuilt alone (ADR 111).
 */
public final class LedgerRebuildService implements RebuildLedgerUseCase {

    private final UnarchivedSales sales;
    private final GatedRebuild rebuild;
    private final Clock clock;

    /** @param activities the sales, looked up and checked for their archive, as one store */
    public <S extends ActivityLookupPort & ActivityArchivesPort> LedgerRebuildService(
            S activities, RebuildPorts rebuilding, Clock clock) {
        this.sales = new UnarchivedSales(activities, activities);
        this.rebuild = new GatedRebuild(rebuilding, clock);
        this.clock = clock;
    }

    @Override
    public RebuildOutcome rebuild(ActivityId activityId) {
        Activity activity = sales.get(activityId);
        if (activity.phaseAt(clock.instant()) == SalePhase.ENDED) {
            return RebuildOutcome.ENDED;
        }
        return rebuild.run(activity);
    }
}
