package io.flashsale.adapter.redis.internal;

import io.flashsale.application.shared.port.out.HotStoreFiguresDisagreeException;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.stock.IllegalStockMoveException;
import io.flashsale.domain.stock.SkuStock;
import io.flashsale.domain.stock.StockLedger;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reads the flat array replies of the scripts: bulk strings arrive as String, Lua numbers as Long. */
public final class ScriptReplies {

    private static final int FIGURES_PER_SKU = 5;

    private ScriptReplies() {
    }

    public static String text(List<Object> reply, int index) {
        return String.valueOf(reply.get(index));
    }

    public static long number(List<Object> reply, int index) {
        Object value = reply.get(index);
        return value instanceof Long number ? number : Long.parseLong(String.valueOf(value));
    }

    /**
     * The reply of {@code stock.lua}: per SKU {@code skuId, total, reserved, sold, available}; empty when the
     * activity is not warmed up. The summed segments must agree with the ledger, else the store has drifted.
     *
     * @throws HotStoreFiguresDisagreeException when a SKU's figures contradict each other
     */
    public static Optional<List<SkuStock>> stock(List<Object> reply) {
        if (reply.isEmpty()) {
            return Optional.empty();
        }
        var stock = new ArrayList<SkuStock>();
        for (int i = 0; i < reply.size(); i += FIGURES_PER_SKU) {
            var skuId = new SkuId(text(reply, i));
            var ledger = ledger(skuId, number(reply, i + 1), number(reply, i + 2), number(reply, i + 3));
            long segmentsSum = number(reply, i + 4);
            if (segmentsSum != ledger.available()) {
                throw new HotStoreFiguresDisagreeException("segments of " + skuId + " hold " + segmentsSum
                        + " units but the ledger says " + ledger.available() + " are available: " + ledger);
            }
            stock.add(new SkuStock(skuId, ledger));
        }
        return Optional.of(List.copyOf(stock));
    }

    private static StockLedger ledger(SkuId skuId, long total, long reserved, long sold) {
        try {
            return new StockLedger(total, reserved, sold);
        } catch (IllegalStockMoveException impossible) {
            throw new HotStoreFiguresDisagreeException("the ledger of " + skuId + " is impossible: "
                    + impossible.getMessage(), impossible);
        }
    }
}
