package io.flashsale.benchmarks.redis;

import io.flashsale.benchmarks.Take;

/**
 * 5. GET the stock and the buyer's units, check, then DECRBY and HINCRBY: two attempts that read before either
 * writes both pass the check, so it oversells and breaks the limit under contention. Shown here on purpose.
 */
public final class NaiveGetThenDecrStrategy extends NaiveCounterStrategy {

    public NaiveGetThenDecrStrategy(RedisServer server, Interleaving interleaving) {
        super(server, interleaving);
    }

    @Override
    public String name() {
        return "5 Redis naive GET then DECR";
    }

    @Override
    public Take take(String sku, String buyer, int quantity) {
        long available = Long.parseLong(redis.get(stockKey(sku)));
        if (available < quantity) {
            return Take.SOLD_OUT;
        }
        if (held(sku, buyer) + quantity > limit(sku)) {
            return Take.LIMIT;
        }
        interleaving.betweenReadAndWrite();
        redis.decrby(stockKey(sku), quantity);
        redis.hincrby(heldKey(sku), buyer, quantity);
        return Take.TAKEN;
    }
}
