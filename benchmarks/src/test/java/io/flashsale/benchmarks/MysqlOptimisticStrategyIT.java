package io.flashsale.benchmarks;

import io.flashsale.benchmarks.mysql.MysqlOptimisticStrategy;

class MysqlOptimisticStrategyIT extends CorrectStrategyContract {

    @Override
    protected InventoryStrategy create() {
        return new MysqlOptimisticStrategy(Servers.mysql(), Servers.POOL);
    }

    /** Bounded retries: under this much contention an attempt may run out of them, and says so. */
    @Override
    protected boolean mayGiveUp() {
        return true;
    }
}
