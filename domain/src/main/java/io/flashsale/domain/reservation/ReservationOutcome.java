package io.flashsale.domain.reservation;

import io.flashsale.domain.activity.SkuId;

import java.time.Duration;
import java.time.Instant;

/** What a reservation attempt came to. Business refusals are values, not exceptions. */
public sealed interface ReservationOutcome {

    /** Whether the buyer holds a reservation after this attempt. */
    default boolean accepted() {
        return this instanceof Reserved || this instanceof Replayed || this instanceof Settled;
    }

    record Reserved(Reservation reservation) implements ReservationOutcome {
    }

    /** The buyer sent this requestId before: here is the original reservation, nothing deducted again. */
    record Replayed(Reservation reservation) implements ReservationOutcome {
    }

    /**
     * The buyer sent this requestId before and the database of record holds its order now: the hot store keeps no
     * record of a settled reservation (ADR 71), so the application answers with the order as a {@link Replayed}.
     * Nothing was deducted again.
     */
    record Settled(ReservationId reservationId) implements ReservationOutcome {
    }

    record SoldOut(SkuId skuId) implements ReservationOutcome {
    }

    record InsufficientStock(SkuId skuId, long available) implements ReservationOutcome {
    }

    record LimitExceeded(SkuId skuId, int limit, long held) implements ReservationOutcome {
    }

    record NotStarted(Instant startsAt) implements ReservationOutcome {
    }

    record Ended(Instant endsAt) implements ReservationOutcome {
    }

    /** An operator paused the sale (ADR 79): nothing deducted; it may be resumed. */
    record Paused() implements ReservationOutcome {
    }

    /**
     * The buyer's home slice of a sale in slices (ADR 109) is short of the SKU while another slice still holds units
     * of it: units are on their way there, so the buyer should try again after {@code retryAfter}. Not sold out:
     * nothing was deducted or recorded.
     */
    record TryAgain(SkuId skuId, Duration retryAfter) implements ReservationOutcome {

        public TryAgain {
            if (skuId == null || retryAfter == null || retryAfter.isNegative()) {
                throw new IllegalArgumentException("a try-again answer names its SKU and a wait of zero or more");
            }
        }
    }

    /** The activity's stock is not loaded into the hot store yet. */
    record NotReady() implements ReservationOutcome {
    }

    record UnknownSku(SkuId skuId) implements ReservationOutcome {
    }

    /**
     * Refused before the hot store was asked: the attempt came too soon after others under {@code limit}, a token
     * bucket of {@code capacity} tokens refilled by {@code refillTokens} every {@code refillPeriod}. Nothing was
     * deducted or recorded.
     *
     * @param retryAfter how long until the bucket holds a token again
     * @param fullAfter  how long until the bucket is full again
     */
    record RateLimited(AdmissionLimit limit, long capacity, long refillTokens, Duration refillPeriod,
                       Duration retryAfter, Duration fullAfter) implements ReservationOutcome {
    }

    /**
     * Refused before the hot store was asked by the risk control: the buyer, the client's address or the device is on
     * the blocklist, or the device was seen with too many buyers lately ({@link Refusal#SHARED_DEVICE}). Nothing was
     * deducted or recorded.
     */
    record Blocked(Refusal refusal) implements ReservationOutcome {

        /** Why: which entry of the blocklist matched, or a device shared by too many buyers. */
        public enum Refusal {
            BUYER, ADDRESS, DEVICE, SHARED_DEVICE;

            /** The name problems and metrics carry: {@code buyer}, {@code address}, {@code device}, {@code shared-device}. */
            public String label() {
                return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
            }
        }
    }
}
