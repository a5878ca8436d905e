package io.flashsale.benchmarks;

import io.flashsale.benchmarks.redis.RedissonLockStrategy;

class RedissonLockStrategyIT extends CorrectStrategyContract {

    @Override
    protected InventoryStrategy create() {
        return new RedissonLockStrategy(Servers.redis(), Servers.POOL);
    }
}
