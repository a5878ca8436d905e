package io.flashsale.domain.reservation;

import io.flashsale.domain.shared.Require;

/** How many units of one SKU one buyer may hold in one activity (reserved + ordered; released units come back). */
public record PurchaseLimit(int max) {

    public static final int MAX = 1000;
    public static final PurchaseLimit ONE = new PurchaseLimit(1);

    public PurchaseLimit {
        Require.inRange(max, 1, MAX, "perUserLimit");
    }

    public boolean allows(long held, long quantity) {
        return held + quantity <= max;
    }
}
