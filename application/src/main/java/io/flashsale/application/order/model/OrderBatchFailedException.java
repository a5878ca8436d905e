package io.flashsale.application.order.model;

/**
 * One reservation of a batch could not be finished; every reservation before {@link #index()} is. The caller may
 * commit those and deliver this one and the rest again: each step is idempotent.
 */
public class OrderBatchFailedException extends RuntimeException {

    private final int index;

    public OrderBatchFailedException(int index, RuntimeException cause) {
        super("reservation " + index + " of the batch failed: " + cause.getMessage(), cause);
        this.index = index;
    }

    public int index() {
        return index;
    }
}
