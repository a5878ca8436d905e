package io.flashsale.application.reconciliation.service;

import io.flashsale.application.reconciliation.model.RebuildOutcome;
import io.flashsale.domain.activity.Activity;

import java.time.Clock;

/**
 * Loads a sale from the database of record unless the hot store holds it; ready comes last. Not before what was in
 * flight when the loss was found has landed in the database ({@link PipelineGate}): every rebuild, on demand, on the
 * schedule or within a reconciliation, passes here. Rebuilds run in steps of {@link LedgerRebuild#PAGE} orders.
 */
final class GatedRebuild {

    private final PipelineGate gate;
    private final LedgerRebuild rebuild;

    GatedRebuild(RebuildPorts ports, Clock clock) {
        this.gate = new PipelineGate(ports.relayed(), ports.pipeline(), ports.recoveryMarks());
        this.rebuild = new LedgerRebuild(ports.hotStore(), ports.settlement(), ports.recorded(),
                ports.recordedOrders(), ports.metrics(), clock, LedgerRebuild.PAGE);
    }

    RebuildOutcome run(Activity activity) {
        if (!gate.landed(activity.id())) {
            return RebuildOutcome.AWAITING_PIPELINE;
        }
        RebuildOutcome outcome = rebuild.run(activity);
        if (outcome == RebuildOutcome.REBUILT) {
            gate.rebuilt(activity.id());
        }
        return outcome;
    }
}
