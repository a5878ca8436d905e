package io.flashsale.domain.stock;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.shared.InvalidValueException;
import io.flashsale.domain.shared.Require;

import java.time.Instant;

/**
 * An audited change of one SKU's total, as the database of record applied it: the only way a total ever changes
 * after a sale was created. Kept forever, never changed.
 *
 * @param id            the database's id: increasing, and what the hot store marks applied
 * @param soldAtTheTime units sold when the change was applied; the new total never falls below them
 * @param operator      who asked for it, as authenticated
 */
public record StockAdjustment(long id, ActivityId activityId, SkuId skuId, long delta, long stockBefore,
                              long stockAfter, long soldAtTheTime, String operator, String reason, Instant createdAt) {

    public static final int MAX_REASON_LENGTH = 500;
    public static final int MAX_OPERATOR_LENGTH = 100;

    public StockAdjustment {
        Require.present(activityId, "activityId");
        Require.present(skuId, "skuId");
        requireDelta(delta);
        if (stockAfter != stockBefore + delta) {
            throw new IllegalArgumentException("stock " + stockBefore + " + " + delta + " is not " + stockAfter);
        }
        if (stockAfter < soldAtTheTime) {
            throw new IllegalArgumentException("stock " + stockAfter + " below the " + soldAtTheTime + " sold");
        }
        requireOperator(operator);
        requireReason(reason);
        Require.present(createdAt, "createdAt");
    }

    /** A change of at least one unit, never more than a total can hold. */
    public static long requireDelta(long delta) {
        if (delta == 0) {
            throw new InvalidValueException("delta", "must not be 0");
        }
        return Require.inRange(delta, -ActivityItem.MAX_STOCK, ActivityItem.MAX_STOCK, "delta");
    }

    public static String requireReason(String reason) {
        return Require.text(reason, MAX_REASON_LENGTH, "reason");
    }

    public static String requireOperator(String operator) {
        return Require.text(operator, MAX_OPERATOR_LENGTH, "operator");
    }
}
