package io.flashsale.application.reconciliation.port.out;

import io.flashsale.domain.activity.ActivityId;

import java.util.Optional;

/**
 * Where the broker's log ended when the pipeline's part of an activity's recovery began (ADR 30): kept beside the
 * activity in the hot store, so any instance's next pass waits for the same mark. Losing it again only means a later
 * mark is taken, which waits longer, never less.
 */
public interface RecoveryMarkPort {

    Optional<PipelineMark> recoveryMark(ActivityId activityId);

    void keepRecoveryMark(ActivityId activityId, PipelineMark mark);

    void clearRecoveryMark(ActivityId activityId);

    /** Nowhere to keep a mark (the in-memory reference, unit tests): a rebuild waits for nothing in the pipeline. */
    RecoveryMarkPort NONE = new RecoveryMarkPort() {
        @Override
        public Optional<PipelineMark> recoveryMark(ActivityId activityId) {
            return Optional.empty();
        }

        @Override
        public void keepRecoveryMark(ActivityId activityId, PipelineMark mark) {
            // Nothing kept: the gate that holds this port waits for no mark.
        }

        @Override
        public void clearRecoveryMark(ActivityId activityId) {
            // Nothing was kept.
        }
    };
}
