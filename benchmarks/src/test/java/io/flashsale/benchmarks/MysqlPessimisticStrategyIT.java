package io.flashsale.benchmarks;

import io.flashsale.benchmarks.mysql.MysqlPessimisticStrategy;

class MysqlPessimisticStrategyIT extends CorrectStrategyContract {

    @Override
    protected InventoryStrategy create() {
        return new MysqlPessimisticStrategy(Servers.mysql(), Servers.POOL);
    }
}
