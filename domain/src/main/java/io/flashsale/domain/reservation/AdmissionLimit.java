package io.flashsale.domain.reservation;

/**
 * The rate limits an attempt passes: the client address's and the sale's before the hot store, then the buyer's, which
 * the hot store takes in the same atomic step that decides the attempt ({@link ReservationRequest#buyerBucket()}).
 */
public enum AdmissionLimit {
    /** Attempts of one buyer at one sale, shared by every instance (kept by the hot store). */
    BUYER,
    /** Attempts from one client address, shared by every instance. */
    CLIENT,
    /** Attempts at one sale that this instance admits. */
    SALE;

    /** The name metrics and problems carry: {@code buyer}, {@code client}, {@code sale}. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
