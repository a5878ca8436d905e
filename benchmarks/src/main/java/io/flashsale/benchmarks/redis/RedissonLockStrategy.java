package io.flashsale.benchmarks.redis;

import io.flashsale.benchmarks.InventoryStrategy;
import io.flashsale.benchmarks.SaleItem;
import io.flashsale.benchmarks.Take;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RMap;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * 4. A distributed lock per SKU (Redisson's {@link RLock}: the holder's id is the lock's value, so only the holder
 * can release it; waiters are woken by pub/sub) around a plain read-check-write of the stock and the buyer's
 * units. Correct while every holder finishes within the lease; every attempt on the SKU waits its turn.
 */
public final class RedissonLockStrategy implements InventoryStrategy {

    /** Longer than any attempt takes, so the lease never runs out under a holder (no watchdog renewals needed). */
    private static final long LEASE_SECONDS = 30;

    private final RedissonClient redisson;
    private final Map<String, Integer> limits = new ConcurrentHashMap<>();
    private final Set<String> skus = ConcurrentHashMap.newKeySet();

    public RedissonLockStrategy(RedisServer server, int connections) {
        Config config = new Config();
        config.useSingleServer().setAddress(server.uri())
                .setConnectionPoolSize(connections)
                .setConnectionMinimumIdleSize(Math.min(connections, 24));
        this.redisson = Redisson.create(config);
    }

    @Override
    public String name() {
        return "4 Redis lock (Redisson RLock)";
    }

    @Override
    public void stock(SaleItem item) {
        limits.put(item.sku(), item.perBuyerLimit());
        skus.add(item.sku());
        redisson.getAtomicLong(stockKey(item.sku())).set(item.stock());
    }

    @Override
    public Take take(String sku, String buyer, int quantity) {
        RLock lock = redisson.getLock("bench:{" + sku + "}:lock");
        lock.lock(LEASE_SECONDS, TimeUnit.SECONDS);
        try {
            var stock = redisson.getAtomicLong(stockKey(sku));
            long available = stock.get();
            if (available < quantity) {
                return Take.SOLD_OUT;
            }
            RMap<String, String> holdings = redisson.getMap(heldKey(sku), StringCodec.INSTANCE);
            String held = holdings.get(buyer);
            long units = held == null ? 0 : Long.parseLong(held);
            if (units + quantity > limits.get(sku)) {
                return Take.LIMIT;
            }
            stock.set(available - quantity);
            holdings.fastPut(buyer, Long.toString(units + quantity));
            return Take.TAKEN;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public long unitsLeft(String sku) {
        return redisson.getAtomicLong(stockKey(sku)).get();
    }

    private static String stockKey(String sku) {
        return "bench:{" + sku + "}:stock";
    }

    private static String heldKey(String sku) {
        return "bench:{" + sku + "}:held";
    }

    @Override
    public void close() {
        skus.forEach(sku -> redisson.getKeys().delete(stockKey(sku), heldKey(sku), "bench:{" + sku + "}:lock"));
        redisson.shutdown();
    }
}
