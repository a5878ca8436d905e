package io.flashsale.application.order.port.out;

import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;

import java.time.Instant;
import java.util.List;

/**
 * The moves out of ORDERED in the database of record. Each is a conditional transition that one caller wins and every
 * other loses, and only the winner gives stock back, in the same transaction.
 */
public interface OrderTransitionsPort {

    /**
     * ORDERED -> PAID at {@code paidAt}, only before the order's payment deadline (checked in the same conditional
     * move); true when this call made the move, false when the order was not ORDERED or its deadline had passed.
     */
    boolean markPaid(ReservationId reservationId, Instant paidAt);

    /**
     * ORDERED -> CANCELLED | EXPIRED at {@code at}, and only when this call made the move, in the same transaction:
     * the order's units go back (sold and the buyer's purchase rows), a RESTORE stock flow per line is written,
     * and the order is marked as owing the hot store its restore ({@link RestoreQueuePort#dueHotStoreRestores}).
     *
     * @return false, with nothing changed, when the order was not ORDERED
     * @throws IllegalArgumentException when {@code finalStatus} is neither CANCELLED nor EXPIRED
     */
    boolean closeWithRestore(ReservationId reservationId, ReservationStatus finalStatus, Instant at);

    /**
     * ORDERED -> CANCELLED for an order whose reservation the hot store had already released (the buyer cancelled
     * while the order was being placed): the database gives its units back as {@link #closeWithRestore} does, but
     * the hot store owes nothing, as it gave its units back when it released them.
     */
    boolean cancelReleased(ReservationId reservationId, Instant cancelledAt);

    /**
     * Expires up to {@code max} ORDERED orders whose payment deadline passed, oldest deadline first, in ONE
     * transaction, as {@link #closeWithRestore} with EXPIRED does for one: their units come back grouped per buyer and
     * SKU, and each owes the hot store its restore. Safe to call from every instance at once: orders another caller is
     * expiring right now are skipped, never waited for.
     *
     * @return the expired orders' restores, oldest deadline first; empty when none is due
     */
    List<PendingRestore> expireDue(Instant now, int max);
}
