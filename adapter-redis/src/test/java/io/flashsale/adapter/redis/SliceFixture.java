package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.adapter.redis.internal.ScriptReplies;
import io.flashsale.adapter.redis.internal.WarmUpScriptCall;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.stock.StockLedger;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The slices of a test's sale on a Redis. A slice is loaded here as the adapter's warm-up loads it: {@code warm_up.lua}
 * on the slice's keys with the slice's share of every SKU (stock / n each, the remainder to the first slices), one
 * slice at a time, so a test can load some slices and not others.
 */
final class SliceFixture {

    private final RedisClusterCommands<String, String> redis;
    private final LuaScript warmUp;
    private final LuaScript stock;

    SliceFixture(RedisClusterCommands<String, String> redis) {
        this.redis = redis;
        this.warmUp = LuaScript.load(redis, "warm_up");
        this.stock = LuaScript.load(redis, "stock");
    }

    /** Every slice of the sale, slice 0 first. */
    static List<SaleSlice> slicesOf(Activity sale) {
        return WarmUpScriptCall.slicesOf(sale);
    }

    /** Loads every slice of the sale with its share. */
    void warmUp(Activity sale) {
        slicesOf(sale).forEach(slice -> warmUp(slice, sale));
    }

    /** Loads one slice with its share of every SKU of the sale. */
    void warmUp(SaleSlice slice, Activity sale) {
        Long loaded = warmUp.run(redis, ScriptOutputType.INTEGER, WarmUpScriptCall.keys(slice),
                WarmUpScriptCall.arguments(sale, slice));
        assertThat(loaded).as("warm_up.lua on slice %d", slice.index()).isEqualTo(1L);
    }

    /**
     * Every SKU's ledger in the slice, read by {@code stock.lua} in one step (which also checks that the segments sum
     * to what the ledger says is available); empty when the slice is not loaded.
     */
    Map<SkuId, StockLedger> ledgers(SaleSlice slice) {
        List<Object> reply = stock.run(redis, ScriptOutputType.MULTI,
                new String[] {RedisKeys.meta(slice), RedisKeys.stock(slice)});
        Map<SkuId, StockLedger> ledgers = new LinkedHashMap<>();
        ScriptReplies.stock(reply).orElse(List.of())
                .forEach(sku -> ledgers.put(sku.skuId(), sku.ledger()));
        return ledgers;
    }

    StockLedger ledger(SaleSlice slice, SkuId sku) {
        return ledgers(slice).get(sku);
    }

    /** The SKU's available units segment by segment, as the stock hash holds them. */
    List<Long> segments(SaleSlice slice, SkuId sku) {
        int count = Integer.parseInt(redis.hget(RedisKeys.stock(slice), RedisKeys.stockField(sku, "segments")));
        List<Long> units = new ArrayList<>();
        for (int s = 1; s <= count; s++) {
            units.add(Long.parseLong(redis.hget(RedisKeys.stock(slice), RedisKeys.segmentField(sku, s))));
        }
        return units;
    }

    String field(SaleSlice slice, String field) {
        return redis.hget(RedisKeys.stock(slice), field);
    }

    /** Deletes every key of the slice: the Redis is shared and never flushed. One slot, so one call on a cluster. */
    void forget(SaleSlice slice) {
        String buckets = redis.hget(RedisKeys.meta(slice), RedisKeys.REQUEST_BUCKETS);
        List<String> keys = new ArrayList<>(RedisKeys.archiveKeys(slice));
        keys.addAll(RedisKeys.requestKeys(slice, buckets == null ? 0 : Integer.parseInt(buckets)));
        keys.add(RedisKeys.requestsDrop(slice));
        redis.del(keys.toArray(String[]::new));
    }

    void forget(Activity sale) {
        slicesOf(sale).forEach(this::forget);
    }

    /** The sale's units of the SKU over every slice. */
    long totalOverSlices(Activity sale, SkuId sku) {
        return slicesOf(sale).stream().mapToLong(slice -> ledger(slice, sku).total()).sum();
    }
}
