package io.flashsale.application.reconciliation.port.in;

import io.flashsale.application.reconciliation.model.ReconciliationPass;

public interface ScheduleReconciliationsUseCase {

    /**
     * One pass of the reconciliation schedule: reconciles every activity that is not archived and that the hot store
     * holds or whose sale is open (rebuilding the open ones it lost). Safe on every instance at once: every repair is
     * guarded by what its snapshot saw. A failure with one activity does not stop the others; the pass then throws the
     * first failure, the others suppressed in it.
     */
    ReconciliationPass reconcileLive();
}
