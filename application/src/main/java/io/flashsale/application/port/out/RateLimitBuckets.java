package io.flashsale.application.port.out;

/**
 * Token buckets by name. A bucket is made full with its limit the first time it is named, and forgotten some time
 * after it would be full again, so the store holds buckets of recent callers only.
 */
public interface RateLimitBuckets {

    /** Takes one token from the bucket {@code key} if it holds one. */
    BucketAnswer tryTake(BucketKey key, BucketLimit limit);
}
