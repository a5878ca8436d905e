package io.flashsale.benchmarks.redis;

import io.flashsale.benchmarks.Take;

/**
 * 6. DECRBY first and INCRBY back when the result went negative. The stock counter alone cannot oversell (each
 * DECRBY answer is unique), but the counter is seen below zero by everyone meanwhile, a buyer can be refused while
 * units are still there (they are on their way back), and the limit check beside it (HGET, then HINCRBY) is a
 * separate read and write that concurrent attempts of one buyer both pass.
 */
public final class NaiveDecrThenIncrStrategy extends NaiveCounterStrategy {

    public NaiveDecrThenIncrStrategy(RedisServer server, Interleaving interleaving) {
        super(server, interleaving);
    }

    @Override
    public String name() {
        return "6 Redis naive DECR then INCR back";
    }

    @Override
    public Take take(String sku, String buyer, int quantity) {
        if (redis.decrby(stockKey(sku), quantity) < 0) {
            redis.incrby(stockKey(sku), quantity);
            return Take.SOLD_OUT;
        }
        long held = held(sku, buyer);
        interleaving.betweenReadAndWrite();
        if (held + quantity > limit(sku)) {
            redis.incrby(stockKey(sku), quantity);
            return Take.LIMIT;
        }
        redis.hincrby(heldKey(sku), buyer, quantity);
        return Take.TAKEN;
    }
}
