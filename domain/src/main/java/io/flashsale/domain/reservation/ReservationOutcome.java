package io.flashsale.domain.reservation;

import io.flashsale.domain.activity.SkuId;

import java.time.Instant;

/** What a reservation attempt came to. Business refusals are values, not exceptions. */
public sealed interface ReservationOutcome {

    /** Whether the buyer holds a reservation after this attempt. */
    default boolean accepted() {
        return this instanceof Reserved || this instanceof Replayed;
    }

    record Reserved(Reservation reservation) implements ReservationOutcome {
    }

    /** The buyer sent this requestId before: here is the original reservation, nothing deducted again. */
    record Replayed(Reservation reservation) implements ReservationOutcome {
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

    /** The activity's stock is not loaded into the hot store yet. */
    record NotReady() implements ReservationOutcome {
    }

    record UnknownSku(SkuId skuId) implements ReservationOutcome {
    }
}
