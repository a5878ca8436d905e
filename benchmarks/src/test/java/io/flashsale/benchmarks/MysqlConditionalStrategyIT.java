package io.flashsale.benchmarks;

import io.flashsale.benchmarks.mysql.MysqlConditionalStrategy;

class MysqlConditionalStrategyIT extends CorrectStrategyContract {

    @Override
    protected InventoryStrategy create() {
        return new MysqlConditionalStrategy(Servers.mysql(), Servers.POOL);
    }
}
