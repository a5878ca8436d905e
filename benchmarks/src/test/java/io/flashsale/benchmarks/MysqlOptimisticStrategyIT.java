package io.flashsale.benchmarks;

import io.flashsale.benchmarks.mysql.MysqlOptimisticStrategy;

class MysqlOptimisticStrategyIT extends CorrectStrategyContract {

    @Override
    protected InventoryStrategy create() {
        return new MysqlOptimisticStrategy(Servers.mysql(), Servers.POOL);
    }
}
