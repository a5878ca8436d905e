package io.flashsale.application.reconciliation.port.out;

import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.shared.LargeMaps;

import java.util.Map;

/**
 * Some buyers' holdings of one SKU, read by the rolling audit after a look (ADR 59).
 *
 * @param holdings    units per buyer among the fields read, zero entries left out
 * @param steady      true when the SKU still showed the look's version after the read, so the slice belongs to the
 *                    look; only then did the store move its audit cursor on
 * @param cycleEnded  true when this slice reached the end of the SKU's holdings: the next one starts again from the
 *                    beginning, and every holding present through the cycle was in one of its slices
 */
public record HoldingsSlice(Map<BuyerId, Long> holdings, boolean steady, boolean cycleEnded) {

    public HoldingsSlice {
        holdings = LargeMaps.copyOf(holdings);
    }
}
