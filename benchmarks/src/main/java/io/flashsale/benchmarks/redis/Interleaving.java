package io.flashsale.benchmarks.redis;

/**
 * A pause between a naive strategy's read and its write. The benchmark passes {@link #NONE}; a test passes a
 * barrier that holds every attempt after its read until all have read, which makes the race certain instead of
 * likely.
 */
@FunctionalInterface
public interface Interleaving {

    Interleaving NONE = () -> {
    };

    void betweenReadAndWrite();
}
