package io.flashsale.benchmarks;

import io.flashsale.benchmarks.redis.FlashsaleScriptStrategy;

class FlashsaleScriptStrategyIT extends CorrectStrategyContract {

    @Override
    protected InventoryStrategy create() {
        return new FlashsaleScriptStrategy(Servers.redis());
    }
}
