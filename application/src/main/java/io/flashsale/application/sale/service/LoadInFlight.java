package io.flashsale.application.sale.service;

import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.domain.activity.ActivityId;

import java.time.Duration;

/**
 * A sale that the database of record says was loaded and the hot store does not hold is either lost (Redis lost it)
 * or being loaded by another warm-up right now: a warm-up records the load first and runs the script after, so for a
 * moment both are true of a sale that was never sold. Looking again for a short while tells the two apart without
 * ever loading a lost sale: the refusal stays, it only comes later.
 */
final class LoadInFlight {

    /** Far longer than the gap between a warm-up's record and its script, also on a loaded machine. */
    static final Duration DEFAULT_GRACE = Duration.ofSeconds(3);
    private static final Duration POLL = Duration.ofMillis(25);

    private LoadInFlight() {
    }

    /** Whether the hot store holds the sale within {@code grace}: another warm-up's load landed. */
    static boolean landsWithin(StockReservationPort stock, ActivityId activityId, Duration grace) {
        long deadline = System.nanoTime() + grace.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                Thread.sleep(POLL);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            if (stock.stock(activityId).isPresent()) {
                return true;
            }
        }
        return false;
    }

    static Duration requireGrace(Duration grace) {
        if (grace == null || grace.isNegative()) {
            throw new IllegalArgumentException("grace must be zero or positive, was " + grace);
        }
        return grace;
    }
}
