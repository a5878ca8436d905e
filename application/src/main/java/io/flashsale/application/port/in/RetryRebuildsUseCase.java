package io.flashsale.application.port.in;

import io.flashsale.domain.activity.ActivityId;

/**
 * The rebuilds a recovery could not finish at once (ADR 62): a sale whose rebuild answered
 * {@link RebuildOutcome#AWAITING_PIPELINE} or {@link RebuildOutcome#IN_PROGRESS} is asked again within seconds, off the
 * request path, instead of waiting for the reconciliation schedule. The sale answers NOT_READY meanwhile.
 */
public interface RetryRebuildsUseCase {

    /** Remembers the sale for a retry soon; a sale remembered already keeps its place and its bound. */
    void retryLater(ActivityId activityId);

    /** Asks again the rebuild of every remembered sale whose wait is over. */
    RebuildRetryPass retryDue();
}
