package io.flashsale.application.reconciliation.service;

import io.flashsale.application.reconciliation.port.out.PipelineMark;
import io.flashsale.application.reconciliation.port.out.PipelinePositionPort;
import io.flashsale.application.reconciliation.port.out.RecoveryMarkPort;
import io.flashsale.application.reconciliation.port.out.RelayedEventsPort;
import io.flashsale.domain.activity.ActivityId;

import java.lang.System.Logger.Level;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Decides when a sale the hot store lost may be rebuilt from the database of record (ADR 30): only once everything
 * that was in flight has landed there. First the outbox entries that survived the loss are relayed (a lost sale takes
 * no new reservations, so once the outbox has drained nothing more of it can enter the broker); then the end offsets
 * of the reservations topic are taken, once, and kept; then the order consumer's group must have committed up to
 * them. Dead letters of the sale are counted and logged, never waited for: they land when an operator replays them,
 * and MySQL's keys and conditional stock update keep that replay from overselling the rebuilt ledger.
 */
final class PipelineGate {

    private static final System.Logger LOG = System.getLogger(PipelineGate.class.getName());

    private final RelayedEventsPort relayed;
    private final PipelinePositionPort pipeline;
    private final RecoveryMarkPort marks;

    /**
     * @param relayed {@link RelayedEventsPort#NONE}, or marks {@link RecoveryMarkPort#NONE}: no view of the outbox or
     *                nowhere to keep a mark, so nothing to wait for
     */
    PipelineGate(RelayedEventsPort relayed, PipelinePositionPort pipeline, RecoveryMarkPort marks) {
        this.relayed = Objects.requireNonNull(relayed, "relayed");
        this.pipeline = pipeline;
        this.marks = Objects.requireNonNull(marks, "marks");
    }

    /** True when the activity's rebuild may run now. */
    boolean landed(ActivityId activityId) {
        return landed(activityId, () -> relayed.outboxDrained(activityId));
    }

    /**
     * As {@link #landed(ActivityId)}, with the outbox that must have drained told by the caller: a rebuild of some
     * slices of a sale waits for theirs alone (ADR 111), the others go on selling.
     */
    boolean landed(ActivityId activityId, BooleanSupplier outboxDrained) {
        if (relayed == RelayedEventsPort.NONE || marks == RecoveryMarkPort.NONE) {
            return true;
        }
        if (!outboxDrained.getAsBoolean()) {
            LOG.log(Level.WARNING, "Activity {0} lost by the hot store waits for its surviving outbox entries to be"
                    + " relayed before it is rebuilt; it answers NOT_READY meanwhile", activityId.value());
            return false;
        }
        Optional<PipelineMark> kept = marks.recoveryMark(activityId);
        PipelineMark mark = kept.orElseGet(pipeline::ends);
        if (kept.isEmpty()) {
            marks.keepRecoveryMark(activityId, mark);
        }
        PipelineMark consumed = pipeline.consumed();
        if (!consumed.reached(mark)) {
            LOG.log(Level.WARNING, "Activity {0} lost by the hot store waits for the order consumer to read {1} more"
                    + " event(s), up to {2}, before it is rebuilt; it answers NOT_READY meanwhile", activityId.value(),
                    consumed.behind(mark), mark);
            return false;
        }
        long deadLetters = pipeline.deadLettersOf(activityId);
        if (deadLetters > 0) {
            LOG.log(Level.WARNING, "Activity {0} is rebuilt with {1} of its reservation(s) in the dead-letter topic:"
                    + " they become orders when an operator replays them", activityId.value(), deadLetters);
        }
        return true;
    }

    void rebuilt(ActivityId activityId) {
        marks.clearRecoveryMark(activityId);
    }
}
