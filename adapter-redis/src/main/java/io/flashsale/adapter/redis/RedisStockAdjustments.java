package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.adapter.redis.internal.ScriptReplies;
import io.flashsale.application.reconciliation.port.out.HotStoreAdjustmentPort;
import io.flashsale.application.reconciliation.port.out.SliceAdjustmentPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.stock.LedgerAdjustment;
import io.flashsale.domain.stock.StockLedger;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.util.List;
import java.util.function.Consumer;

/**
 * Audited stock adjustments on Redis: {@code adjust.lua}, once per adjustment id, never partly; of a sale in slices,
 * each slice's part on that slice's keys, once per adjustment id and slice (ADR 112). Thread-safe.
 */
public final class RedisStockAdjustments implements HotStoreAdjustmentPort, SliceAdjustmentPort {

    private final RedisClusterCommands<String, String> redis;
    private final LuaScript adjust;
    private final Consumer<ActivityId> returns;

    public RedisStockAdjustments(StatefulRedisConnection<String, String> connection) {
        this(connection.sync(), activityId -> { });
    }

    /** @param returns told after every adjustment: one that adds units makes them buyable again */
    RedisStockAdjustments(RedisClusterCommands<String, String> redis, Consumer<ActivityId> returns) {
        this.redis = redis;
        this.adjust = LuaScript.load(redis, "adjust");
        this.returns = returns;
    }

    @Override
    public LedgerAdjustment adjust(ActivityId activityId, SkuId skuId, long delta, long adjustmentId) {
        return adjust(RedisKeys.sliceZero(activityId), skuId, delta, adjustmentId);
    }

    @Override
    public LedgerAdjustment adjust(SaleSlice slice, SkuId skuId, long part, long adjustmentId) {
        String[] keys = {RedisKeys.meta(slice), RedisKeys.stock(slice)};
        List<Object> reply = adjust.run(redis, ScriptOutputType.MULTI, keys, skuId.value(), Long.toString(part),
                Long.toString(adjustmentId));
        returns.accept(slice.activityId());
        return switch (ScriptReplies.text(reply, 0)) {
            case "APPLIED" -> new LedgerAdjustment.Applied(new StockLedger(ScriptReplies.number(reply, 1),
                    ScriptReplies.number(reply, 2), ScriptReplies.number(reply, 3)));
            case "ALREADY_APPLIED" -> new LedgerAdjustment.AlreadyApplied();
            case "REFUSED" -> new LedgerAdjustment.Refused(ScriptReplies.number(reply, 1));
            case "UNKNOWN_SKU" -> new LedgerAdjustment.UnknownSku();
            case "NOT_LOADED" -> new LedgerAdjustment.NotLoaded();
            default -> throw new IllegalStateException("adjust.lua answered " + reply);
        };
    }
}
