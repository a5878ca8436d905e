package io.flashsale.application.reconciliation.port.in;

import io.flashsale.application.reconciliation.model.RebuildOutcome;
import io.flashsale.application.reconciliation.model.RebuildRetryPass;
import io.flashsale.domain.activity.ActivityId;

/**
 * The rebuilds a recovery could not finish at once (ADR 62): a sale whose rebuild answered
 * {@link RebuildOutcome#AWAITING_PIPELINE} or {@link RebuildOutcome#IN_PROGRESS} is asked again within seconds, off the
 * request path, instead of waiting for the reconciliation schedule. The sale answers NOT_READY meanwhile.
 */
public interface RetryRebuildsUseCase {

    /** Remembers the sale for a retry soon; a sale remembered already keeps its place and its bound. */
    void retryLater(ActivityId activityId);

    /**
     * Asks again, each on its own, the rebuild of every remembered sale whose wait is over and that is not being asked
     * already; reports the retries that finished since the last pass.
     */
    RebuildRetryPass retryDue();
}
