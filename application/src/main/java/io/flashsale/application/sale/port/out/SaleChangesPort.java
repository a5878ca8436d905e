package io.flashsale.application.sale.port.out;

import io.flashsale.domain.activity.ActivityId;

/**
 * Tells every instance that a sale changed in the database of record (created, its stock adjusted, archived), so that
 * what each one remembered of it is forgotten: this instance's listeners at once, the others' within moments.
 */
public interface SaleChangesPort {

    void announce(ActivityId activityId);

    /** From now on, {@code listener} hears of every change, announced on this instance or on another. */
    void subscribe(SaleChangeListener listener);

    /** Tells nobody: for a service that remembers nothing of its sales. */
    static SaleChangesPort none() {
        return new SaleChangesPort() {
            @Override
            public void announce(ActivityId activityId) {
            }

            @Override
            public void subscribe(SaleChangeListener listener) {
            }
        };
    }
}
