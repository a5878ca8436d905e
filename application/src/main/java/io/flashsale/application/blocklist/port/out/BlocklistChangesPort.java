package io.flashsale.application.blocklist.port.out;

/**
 * Tells every instance that the blocklist changed in the database of record, so that each reads it again: this
 * instance's listeners at once, the others' within moments.
 */
public interface BlocklistChangesPort {

    void announce();

    /** From now on, {@code listener} hears of every change, announced on this instance or on another. */
    void subscribe(BlocklistChangeListener listener);

    /** Tells nobody: instances then learn of changes by their periodic read only. */
    static BlocklistChangesPort none() {
        return new BlocklistChangesPort() {
            @Override
            public void announce() {
            }

            @Override
            public void subscribe(BlocklistChangeListener listener) {
            }
        };
    }
}
