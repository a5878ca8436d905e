package io.flashsale.adapter.redis.internal;

import io.flashsale.domain.reservation.BucketLimit;

import java.time.Duration;

/** A bucket's ARGV for {@code fs_bucket_take}: capacity, microseconds per token, how long a full bucket's key stays. */
public final class BucketArguments {

    /** A key outlives the moment its bucket would be full again by this much, so Redis holds recent callers only. */
    public static final Duration KEEP_AFTER_FULL = Duration.ofSeconds(5);

    private BucketArguments() {
    }

    public static String[] of(BucketLimit limit) {
        double intervalMicros = limit.refillPeriod().toNanos() / 1000.0 / limit.refillTokens();
        return new String[]{Long.toString(limit.capacity()), Double.toString(intervalMicros),
                Long.toString(KEEP_AFTER_FULL.toMillis())};
    }

    /** The ARGV of no bucket: {@code fs_bucket_take} is not called. */
    public static String[] none() {
        return new String[]{"", "", ""};
    }
}
