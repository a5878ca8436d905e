package io.flashsale.benchmarks.redis;

import io.flashsale.benchmarks.InventoryStrategy;
import io.flashsale.benchmarks.SaleItem;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The naive Redis strategies: a plain counter per SKU ({@code bench:{sku}:stock}) and a hash of units per buyer
 * ({@code bench:{sku}:held}), changed by single commands from the client, with no atomic step around the check and
 * the write. One shared Lettuce connection, as the service uses.
 */
public abstract sealed class NaiveCounterStrategy implements InventoryStrategy
        permits NaiveGetThenDecrStrategy, NaiveDecrThenIncrStrategy {

    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;
    private final Map<String, Integer> limits = new ConcurrentHashMap<>();
    private final Set<String> skus = ConcurrentHashMap.newKeySet();
    protected final RedisCommands<String, String> redis;
    protected final Interleaving interleaving;

    protected NaiveCounterStrategy(RedisServer server, Interleaving interleaving) {
        this.client = RedisClient.create(server.uri());
        this.connection = client.connect();
        this.redis = connection.sync();
        this.interleaving = interleaving;
    }

    static String stockKey(String sku) {
        return "bench:{" + sku + "}:stock";
    }

    static String heldKey(String sku) {
        return "bench:{" + sku + "}:held";
    }

    protected int limit(String sku) {
        return limits.get(sku);
    }

    /** Units the buyer holds, as one read. */
    protected long held(String sku, String buyer) {
        String held = redis.hget(heldKey(sku), buyer);
        return held == null ? 0 : Long.parseLong(held);
    }

    @Override
    public void stock(SaleItem item) {
        limits.put(item.sku(), item.perBuyerLimit());
        skus.add(item.sku());
        redis.set(stockKey(item.sku()), Long.toString(item.stock()));
    }

    @Override
    public long unitsLeft(String sku) {
        return Long.parseLong(redis.get(stockKey(sku)));
    }

    @Override
    public void close() {
        skus.forEach(sku -> redis.del(stockKey(sku), heldKey(sku)));
        connection.close();
        client.shutdown();
    }
}
