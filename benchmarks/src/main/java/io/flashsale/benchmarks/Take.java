package io.flashsale.benchmarks;

/** What one attempt came to. */
public enum Take {
    /** The units are the buyer's. */
    TAKEN,
    /** Not enough units left. */
    SOLD_OUT,
    /** The buyer would hold more than the per-buyer limit. */
    LIMIT,
    /** A strategy with bounded retries ran out of them (optimistic locking under contention). */
    GAVE_UP,
    /** Anything else: a failure of the strategy, counted and reported, never hidden. */
    ERROR
}
