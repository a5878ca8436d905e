package io.flashsale.application.reservation.port.out;

import io.flashsale.domain.reservation.BucketLimit;

/**
 * Token buckets by name. A bucket is made full with its limit the first time it is named, and forgotten some time
 * after it would be full again, so the store holds buckets of recent callers only.
 */
public interface RateLimitBucketsPort {

    /** Takes one token from the bucket {@code key} if it holds one. */
    BucketAnswer tryTake(BucketKey key, BucketLimit limit);

    /**
     * Puts back one token taken from {@code key} for an attempt a later limit refused, so that attempt costs this
     * bucket nothing. A store that cannot give tokens back keeps them: the bucket refills on its own.
     */
    default void giveBack(BucketKey key, BucketLimit limit) {
    }
}
