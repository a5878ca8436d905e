package io.flashsale.application.service;

import io.flashsale.application.port.out.BucketAnswer;
import io.flashsale.application.port.out.BucketKey;
import io.flashsale.application.port.out.BucketLimit;
import io.flashsale.application.port.out.RateLimitBuckets;
import io.flashsale.application.port.in.ReserveStockCommand;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.AdmissionLimit;
import io.flashsale.domain.reservation.ReservationOutcome;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The rate limits before the hot store, asked in this order: the buyer's (so one buyer's hammering spends only that
 * buyer's tokens, never the sale's), the client address's, then the sale's admission on this instance. The buyer and
 * client buckets are shared by every instance ({@code shared}, in Redis); the sale's is this instance's own
 * ({@code local}), so it costs no round trip and its figure is per instance.
 * <p>
 * A shared bucket store that cannot be asked lets the attempt through: the limiter protects the sale, it must not
 * be what stops it (the hot store decides, or its own outage handling does). Thread-safe.
 */
public final class ReservationAdmission {

    private static final System.Logger LOG = System.getLogger(ReservationAdmission.class.getName());
    private static final long LOG_EVERY_NANOS = Duration.ofSeconds(30).toNanos();

    private final AdmissionPolicy policy;
    private final RateLimitBuckets shared;
    private final RateLimitBuckets local;
    private final boolean limitsAnything;
    private final AtomicLong lastFailureLogged = new AtomicLong(System.nanoTime() - LOG_EVERY_NANOS);

    public ReservationAdmission(AdmissionPolicy policy, RateLimitBuckets shared, RateLimitBuckets local) {
        this.policy = policy;
        this.shared = shared;
        this.local = local;
        this.limitsAnything = policy.limitsAnything();
    }

    /** Admits everything. */
    public static ReservationAdmission unlimited() {
        return new ReservationAdmission(AdmissionPolicy.unlimited(), null, null);
    }

    /** Empty when the attempt may go on to the hot store; else the refusal, nothing deducted or recorded. */
    public Optional<ReservationOutcome> refusal(ReserveStockCommand command) {
        if (!limitsAnything) {
            return Optional.empty();
        }
        ActivityId activityId = command.activityId();
        BucketLimit buyer = policy.buyerAt(activityId);
        if (buyer != null) {
            BucketKey key = new BucketKey(AdmissionLimit.BUYER, activityId.value() + ":" + command.buyerId().value());
            BucketAnswer answer = takeShared(key, buyer);
            if (!answer.taken()) {
                return Optional.of(refused(AdmissionLimit.BUYER, buyer, answer));
            }
        }
        if (policy.client() != null && command.clientAddress() != null) {
            BucketAnswer answer = takeShared(new BucketKey(AdmissionLimit.CLIENT, command.clientAddress()),
                    policy.client());
            if (!answer.taken()) {
                return Optional.of(refused(AdmissionLimit.CLIENT, policy.client(), answer));
            }
        }
        BucketLimit sale = policy.saleAt(activityId);
        if (sale != null) {
            BucketAnswer answer = local.tryTake(new BucketKey(AdmissionLimit.SALE, activityId.value()), sale);
            if (!answer.taken()) {
                return Optional.of(refused(AdmissionLimit.SALE, sale, answer));
            }
        }
        return Optional.empty();
    }

    private BucketAnswer takeShared(BucketKey key, BucketLimit limit) {
        try {
            return shared.tryTake(key, limit);
        } catch (RuntimeException unavailable) {
            long now = System.nanoTime();
            long last = lastFailureLogged.get();
            if (now - last >= LOG_EVERY_NANOS && lastFailureLogged.compareAndSet(last, now)) {
                LOG.log(Level.WARNING, "rate-limit buckets unavailable, attempts are let through: " + unavailable);
            }
            return BucketAnswer.takenUnknown();
        }
    }

    private static ReservationOutcome refused(AdmissionLimit which, BucketLimit limit, BucketAnswer answer) {
        // Empty now: full again once the tokens missing up to the capacity have been refilled.
        Duration fullAfter = answer.untilNextToken().plus(limit.timeToFill()).minus(limit.refillPeriod());
        return new ReservationOutcome.RateLimited(which, limit.capacity(), limit.refillTokens(), limit.refillPeriod(),
                answer.untilNextToken(), fullAfter.isNegative() ? answer.untilNextToken() : fullAfter);
    }
}
