package io.flashsale.adapter.kafka;

import io.flashsale.application.shared.port.out.StoreContentionException;
import io.flashsale.application.shared.port.out.StoreUnavailableException;

/**
 * Which failures of the order consumer pass by themselves. The store adapters decide it by exception type at their
 * edge (adapter-mysql: a lost, refused or timed-out connection, a pool with no free connection within its wait, a
 * failed rollback on a lost connection; adapter-redis: a refused or reset connection, a command timeout) and say so
 * with the application's two exceptions; this adapter only reads their verdict (ADR 49, 53, 78).
 */
final class StoreOutages {

    private StoreOutages() {
    }

    /** A store out of reach, or a lock the change lost: anywhere in the cause chain. */
    static boolean isIn(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof StoreUnavailableException || cause instanceof StoreContentionException) {
                return true;
            }
            if (cause.getCause() == cause) {
                return false;
            }
        }
        return false;
    }
}
