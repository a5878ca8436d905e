package io.flashsale.adapter.scheduling;

/** One pass of a background job. */
@FunctionalInterface
public interface Pass {

    /** Runs the pass; true when it stopped at its batch size, so more work is likely waiting at once. */
    boolean run();
}
