package io.flashsale.domain.reservation;

import java.time.Duration;

/** A token bucket: {@code capacity} tokens at most (the burst), {@code refillTokens} more every {@code refillPeriod}. */
public record BucketLimit(long capacity, long refillTokens, Duration refillPeriod) {

    public BucketLimit {
        if (capacity < 1 || refillTokens < 1 || refillPeriod == null || refillPeriod.isNegative()
                || refillPeriod.isZero()) {
            throw new IllegalArgumentException("a bucket needs a positive capacity, refill and period: "
                    + capacity + ", " + refillTokens + " per " + refillPeriod);
        }
    }

    /** How long an empty bucket takes to be full again. */
    public Duration timeToFill() {
        long periods = (capacity + refillTokens - 1) / refillTokens;
        return refillPeriod.multipliedBy(periods);
    }

    /**
     * The refusal of an attempt that found this bucket empty, its next token {@code untilNextToken} away: retry
     * then; the whole burst is back once the tokens missing up to the capacity have been refilled too.
     */
    public ReservationOutcome.RateLimited refusal(AdmissionLimit which, Duration untilNextToken) {
        Duration fullAfter = untilNextToken.plus(timeToFill()).minus(refillPeriod);
        return new ReservationOutcome.RateLimited(which, capacity, refillTokens, refillPeriod, untilNextToken,
                fullAfter.isNegative() ? untilNextToken : fullAfter);
    }
}
