package io.flashsale.domain.reservation;

/** The rate limits an attempt passes before the hot store decides it, in the order they are asked. */
public enum AdmissionLimit {
    /** Attempts of one buyer at one sale, shared by every instance. */
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
