package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.adapter.redis.internal.ScriptReplies;
import io.flashsale.application.shared.port.out.HotStoreFiguresDisagreeException;
import io.flashsale.application.slice.port.out.SliceStockPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.stock.SkuStock;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * The two halves of a stock transfer between a sale's slices on Redis (ADR 109): {@code transfer_out.lua} on the
 * source slice's slot, {@code transfer_in.lua} on the target's, each once per transfer id; what a slice has
 * available of a SKU ({@code slice_available.lua}) and its ledgers ({@code stock.lua} on its keys). Thread-safe.
 */
public final class RedisSliceStock implements SliceStockPort {

    private final RedisClusterCommands<String, String> redis;
    private final LuaScript transferOut;
    private final LuaScript transferIn;
    private final LuaScript available;
    private final LuaScript stock;
    private final Consumer<ActivityId> returns;

    public RedisSliceStock(StatefulRedisConnection<String, String> connection) {
        this(connection.sync(), activityId -> { });
    }

    /** @param returns told after every credit that gave the slice units: they may be buyable again */
    RedisSliceStock(RedisClusterCommands<String, String> redis, Consumer<ActivityId> returns) {
        this.redis = redis;
        this.transferOut = LuaScript.load(redis, "transfer_out");
        this.transferIn = LuaScript.load(redis, "transfer_in");
        this.available = LuaScript.load(redis, "slice_available");
        this.stock = LuaScript.load(redis, "stock");
        this.returns = returns;
    }

    @Override
    public OptionalLong take(SaleSlice slice, SkuId skuId, long transferId, long units) {
        List<Object> reply = run(transferOut, slice, skuId, transferId, units);
        return switch (ScriptReplies.text(reply, 0)) {
            case "TAKEN", "TAKEN_BEFORE" -> OptionalLong.of(ScriptReplies.number(reply, 1));
            case "NOT_LOADED" -> OptionalLong.empty();
            case "UNKNOWN_SKU" -> throw unknown(slice, skuId);
            default -> throw new IllegalStateException("transfer_out.lua answered " + reply);
        };
    }

    @Override
    public boolean credit(SaleSlice slice, SkuId skuId, long transferId, long units) {
        List<Object> reply = run(transferIn, slice, skuId, transferId, units);
        return switch (ScriptReplies.text(reply, 0)) {
            case "CREDITED", "CREDITED_BEFORE" -> {
                // Told on a repeat too: the first call's notice may have been lost with the caller that made it.
                if (ScriptReplies.number(reply, 1) > 0) {
                    returns.accept(slice.activityId());
                }
                yield true;
            }
            case "NOT_LOADED" -> false;
            case "UNKNOWN_SKU" -> throw unknown(slice, skuId);
            default -> throw new IllegalStateException("transfer_in.lua answered " + reply);
        };
    }

    @Override
    public OptionalLong available(SaleSlice slice, SkuId skuId) {
        List<Object> reply = available.run(redis, ScriptOutputType.MULTI, keys(slice), skuId.value());
        return switch (ScriptReplies.text(reply, 0)) {
            case "AVAILABLE" -> OptionalLong.of(ScriptReplies.number(reply, 1));
            case "NOT_LOADED", "UNKNOWN_SKU" -> OptionalLong.empty();
            default -> throw new IllegalStateException("slice_available.lua answered " + reply);
        };
    }

    @Override
    public Optional<List<SkuStock>> stock(SaleSlice slice) {
        return ScriptReplies.stock(stock.run(redis, ScriptOutputType.MULTI, keys(slice)));
    }

    private List<Object> run(LuaScript script, SaleSlice slice, SkuId skuId, long transferId, long units) {
        if (transferId < 0 || units < 0) {
            throw new IllegalArgumentException("transfer " + transferId + " of " + units + " units: both must be >= 0");
        }
        return script.run(redis, ScriptOutputType.MULTI, keys(slice), skuId.value(), Long.toString(transferId),
                Long.toString(units));
    }

    private static String[] keys(SaleSlice slice) {
        return new String[] {RedisKeys.meta(slice), RedisKeys.stock(slice)};
    }

    /** A loaded slice without a SKU of its sale has drifted from the database of record. */
    private static HotStoreFiguresDisagreeException unknown(SaleSlice slice, SkuId skuId) {
        return new HotStoreFiguresDisagreeException("slice " + slice.index() + " of " + slice.activityId()
                + " is loaded but holds no SKU " + skuId);
    }
}
