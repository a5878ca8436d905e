package io.flashsale.application.reference;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.AdmissionLimit;
import io.flashsale.domain.reservation.BucketLimit;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The reference model's buyer buckets: the same GCRA as {@code reserve.lua} (the bucket kept as its theoretical
 * arrival time), on each attempt's own instant instead of Redis TIME. Keeps every bucket it ever made: for tests.
 * Not thread-safe: its store's lock guards it.
 */
final class BuyerBuckets {

    private record Key(ActivityId activityId, BuyerId buyerId) {
    }

    private final Map<Key, Long> arrivals = new HashMap<>();

    /** Empty when the attempt had no bucket or took a token; else the refusal. */
    Optional<ReservationOutcome> take(ReservationRequest request) {
        BucketLimit limit = request.buyerBucket();
        if (limit == null) {
            return Optional.empty();
        }
        Key key = new Key(request.activityId(), request.buyerId());
        long now = nanos(request.at());
        double interval = (double) limit.refillPeriod().toNanos() / limit.refillTokens();
        long arrival = Math.max(arrivals.getOrDefault(key, now), now);
        double late = arrival - now - (limit.capacity() - 1) * interval;
        if (late > 0) {
            return Optional.of(limit.refusal(AdmissionLimit.BUYER, Duration.ofNanos((long) Math.ceil(late))));
        }
        arrivals.put(key, (long) (arrival + interval));
        return Optional.empty();
    }

    private static long nanos(Instant at) {
        return at.getEpochSecond() * 1_000_000_000L + at.getNano();
    }
}
