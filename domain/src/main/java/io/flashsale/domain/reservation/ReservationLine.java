package io.flashsale.domain.reservation;

import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.shared.Require;

public record ReservationLine(SkuId skuId, int quantity) {

    public static final int MAX_QUANTITY = 1000;

    public ReservationLine {
        Require.present(skuId, "skuId");
        Require.inRange(quantity, 1, MAX_QUANTITY, "quantity");
    }
}
