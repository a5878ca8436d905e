package io.flashsale.domain.order;

/** Why the database of record refused a reservation the hot store had accepted: it disagrees with the cache. */
public enum OrderRefusal {
    /** The conditional stock update found fewer units than the reservation holds. */
    OUT_OF_STOCK,
    /** The buyer's purchase row would exceed the per-user limit. */
    LIMIT_EXCEEDED,
    /** The activity or one of the SKUs does not exist in the database. */
    UNKNOWN_ITEM,
    /**
     * The buyer's request id is held by another reservation of the activity already: a retried request that the hot
     * store took as new (its request index was lost). Not stored, since the request's one order row exists.
     */
    DUPLICATE_REQUEST,
    /**
     * Its event was set aside (dead-lettered) and not placed by the sale's payment deadline: the reservation is closed
     * and its units go back, so a poison event never holds stock longer than an unpaid order would (ADR 78).
     */
    NOT_PLACED_IN_TIME
}
