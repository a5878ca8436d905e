package io.flashsale.application.slice.model;

/**
 * Where a sale's slices sit in the hot store (ADR 109): on how many of its masters. The slices are spread as well as
 * they can be when they sit on as many masters as there are slices, or on every master when there are more slices.
 *
 * @param slices  the sale's slice count
 * @param masters the distinct masters holding at least one of the slices
 * @param of      the masters the hot store has (1 for a single server)
 */
public record SlicePlacement(int slices, int masters, int of) {

    public SlicePlacement {
        if (slices < 1 || masters < 1 || of < 1 || masters > Math.min(slices, of)) {
            throw new IllegalArgumentException("slices " + slices + " on " + masters + " of " + of + " masters");
        }
    }

    /** True when no other placement would put the slices on more masters. */
    public boolean spread() {
        return masters == Math.min(slices, of);
    }
}
