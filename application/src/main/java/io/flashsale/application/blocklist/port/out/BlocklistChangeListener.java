package io.flashsale.application.blocklist.port.out;

/** Called by {@link BlocklistChangesPort}; must not block: it runs on the notifying thread. */
@FunctionalInterface
public interface BlocklistChangeListener {

    /**
     * What this instance holds of the blocklist may be stale: a change was announced, or notices may have been missed
     * (the channel was down).
     */
    void stale();
}
