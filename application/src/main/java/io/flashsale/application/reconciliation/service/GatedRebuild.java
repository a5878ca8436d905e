package io.flashsale.application.reconciliation.service;

import io.flashsale.application.reconciliation.model.RebuildOutcome;
import io.flashsale.application.sale.model.SaleInSlicesException;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.slice.SaleSlice;

import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * Loads a sale from the database of record unless the hot store holds it; ready comes last. Not before what was in
 * flight when the loss was found has landed in the database ({@link PipelineGate}): every rebuild, on demand, on the
 * schedule or within a reconciliation, passes here. Rebuilds run in steps of {@link LedgerRebuild#PAGE} orders. A sale
 * in slices is rebuilt slice by slice, only the slices the hot store lost ({@link LostSliceRebuild}, ADR 111).
 */
final class GatedRebuild {

    private final PipelineGate gate;
    private final LedgerRebuild rebuild;
    private final Optional<LostSliceRebuild> slices;

    GatedRebuild(RebuildPorts ports, Clock clock) {
        this.gate = new PipelineGate(ports.relayed(), ports.pipeline(), ports.recoveryMarks());
        this.rebuild = new LedgerRebuild(ports.hotStore(), ports.settlement(), ports.recorded(),
                ports.recordedOrders(), ports.metrics(), clock, LedgerRebuild.PAGE);
        this.slices = ports.slices().map(sliced -> new LostSliceRebuild(sliced, ports.settlement(),
                ports.recordedOrders(), ports.metrics(), clock, LedgerRebuild.PAGE));
    }

    /** True when a sale in slices can be rebuilt here: the stores have slices. */
    boolean rebuildsSlices() {
        return slices.isPresent();
    }

    /** @throws SaleInSlicesException for a sale in slices when the stores have no slices to rebuild */
    RebuildOutcome run(Activity activity) {
        if (activity.slices().sliced()) {
            return runSlices(activity, slices.orElseThrow(() -> new SaleInSlicesException(activity.id(),
                    activity.slices().count(), "a rebuild")));
        }
        if (!gate.landed(activity.id())) {
            return RebuildOutcome.AWAITING_PIPELINE;
        }
        RebuildOutcome outcome = rebuild.run(activity);
        if (outcome == RebuildOutcome.REBUILT) {
            gate.rebuilt(activity.id());
        }
        return outcome;
    }

    /** The lost slices alone wait for the pipeline; the others go on selling meanwhile (ADR 111). */
    private RebuildOutcome runSlices(Activity activity, LostSliceRebuild lostSlices) {
        List<SaleSlice> lost = lostSlices.lost(activity);
        if (lost.isEmpty()) {
            return RebuildOutcome.ALREADY_LOADED;
        }
        if (!gate.landed(activity.id(), () -> lostSlices.outboxesDrained(lost))) {
            return RebuildOutcome.AWAITING_PIPELINE;
        }
        RebuildOutcome outcome = lostSlices.run(activity, lost);
        if (outcome == RebuildOutcome.REBUILT) {
            gate.rebuilt(activity.id());
        }
        return outcome;
    }
}
