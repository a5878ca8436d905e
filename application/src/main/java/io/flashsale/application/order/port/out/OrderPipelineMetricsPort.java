package io.flashsale.application.order.port.out;

import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.OrderPlacement;

import java.time.Duration;

/**
 * What the order pipeline reports to operators: counts per placement kind, a log line for every refusal, and every
 * reservation event the order consumer gave up on.
 */
public interface OrderPipelineMetricsPort {

    void recorded(OrderPlacement placement);

    void relayed(int reservations);

    /** The order consumer settled a batch of {@code reservations} deliveries. */
    default void batchSettled(int reservations) {
    }

    /** A reservation became an order {@code sinceReserved} after the hot store accepted it. */
    default void ordered(Duration sinceReserved) {
    }

    /** A batch waited {@code heldBack} before becoming orders, while this instance's buyers queued (ADR 65). */
    default void gaveWay(Duration heldBack) {
    }

    /**
     * The order consumer gave up on the event of {@code reservationId} after its last attempt and set it aside for an
     * admin to replay. Ignored unless an implementation counts it: the event itself is kept either way.
     */
    default void deadLettered(String reservationId) {
    }

    /**
     * A batch of {@code deliveries} met a store out of reach (or a lock it lost): the consumer holds its partitions and
     * tries the batch again once the database answers, never dead-letters it (ADR 78).
     */
    default void waitedForStores(int deliveries) {
    }

    /** A dead-lettered reservation reached its payment deadline unplaced: closed as FAILED, its units given back. */
    default void deadLetterReleased(Order order) {
    }

    /** Dead-lettered reservations that still hold their units, as the last pass over the dead letters found them. */
    default void deadLettersHeld(int reservations) {
    }
}
