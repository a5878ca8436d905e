package io.flashsale.application.reservation.service;

import io.flashsale.application.reservation.model.ReserveStockCommand;
import io.flashsale.application.reservation.port.out.BucketAnswer;
import io.flashsale.application.reservation.port.out.BucketKey;
import io.flashsale.application.reservation.port.out.RateLimitBucketsPort;
import io.flashsale.domain.reservation.AdmissionLimit;
import io.flashsale.domain.reservation.BucketLimit;
import io.flashsale.domain.reservation.ReservationOutcome;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The rate limits of an attempt. Before the hot store: the client address's (shared by every instance, in Redis, one
 * round trip of its own; off by default), then the sale's admission on this instance ({@code local}, no round trip,
 * its figure per instance). The buyer's limit is taken by the hot store in the step that decides the attempt
 * ({@link #buyerBucket}, ADR 0060): no round trip of its own. An attempt the buyer's bucket refused gets its sale token
 * back ({@link #afterStore}), so one buyer's hammering spends only that buyer's tokens, never the sale's.
 * <p>
 * A shared bucket store that cannot be asked lets the attempt through: the limiter protects the sale, it must not
 * be what stops it (the hot store decides, or its own outage handling does). Thread-safe.
 */
public final class ReservationAdmission {

    private static final System.Logger LOG = System.getLogger(ReservationAdmission.class.getName());
    private static final long LOG_EVERY_NANOS = Duration.ofSeconds(30).toNanos();

    private final AdmissionPolicy policy;
    private final RateLimitBucketsPort shared;
    private final RateLimitBucketsPort local;
    private final boolean limitsAnything;
    private final AtomicLong lastFailureLogged = new AtomicLong(System.nanoTime() - LOG_EVERY_NANOS);

    public ReservationAdmission(AdmissionPolicy policy, RateLimitBucketsPort shared, RateLimitBucketsPort local) {
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
        if (policy.client() != null && command.clientAddress() != null) {
            BucketAnswer answer = takeShared(new BucketKey(AdmissionLimit.CLIENT, command.clientAddress()),
                    policy.client());
            if (!answer.taken()) {
                return Optional.of(policy.client().refusal(AdmissionLimit.CLIENT, answer.untilNextToken()));
            }
        }
        BucketLimit sale = policy.saleAt(command.activityId());
        if (sale != null) {
            BucketAnswer answer = local.tryTake(saleKey(command), sale);
            if (!answer.taken()) {
                return Optional.of(sale.refusal(AdmissionLimit.SALE, answer.untilNextToken()));
            }
        }
        return Optional.empty();
    }

    /** The buyer's bucket at the attempt's sale, for the hot store to take a token from; null for no limit. */
    public BucketLimit buyerBucket(ReserveStockCommand command) {
        return limitsAnything ? policy.buyerAt(command.activityId()) : null;
    }

    /** Told the hot store's answer: a refusal by the buyer's bucket gives the attempt's sale token back. */
    public void afterStore(ReserveStockCommand command, ReservationOutcome outcome) {
        if (outcome instanceof ReservationOutcome.RateLimited limited && limited.limit() == AdmissionLimit.BUYER) {
            BucketLimit sale = policy.saleAt(command.activityId());
            if (sale != null) {
                local.giveBack(saleKey(command), sale);
            }
        }
    }

    private static BucketKey saleKey(ReserveStockCommand command) {
        return new BucketKey(AdmissionLimit.SALE, command.activityId().value());
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
}
