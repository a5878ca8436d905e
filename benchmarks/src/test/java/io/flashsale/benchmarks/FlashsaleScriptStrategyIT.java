package io.flashsale.benchmarks;

import io.flashsale.benchmarks.redis.FlashsaleScriptStrategy;
import io.flashsale.benchmarks.redis.ScriptCost;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class FlashsaleScriptStrategyIT extends CorrectStrategyContract {

    @Override
    protected InventoryStrategy create() {
        return new FlashsaleScriptStrategy(Servers.redis());
    }

    @Test
    void givenFiftyTakes_whenTheCountersAreCompared_thenRedisCountedAtLeastFiftyScriptsAndTheirTime() {
        Map<String, Long> before;
        Map<String, Long> after;
        try (InventoryStrategy strategy = create()) {
            SaleItem item = SaleItem.fresh(1_000, 1);
            strategy.stock(item);
            before = strategy.counters();
            for (int buyer = 0; buyer < 50; buyer++) {
                assertThat(strategy.take(item.sku(), "cost-" + buyer, 1)).isEqualTo(Take.TAKEN);
            }
            after = strategy.counters();
        }

        long calls = after.get(ScriptCost.CALLS) - before.get(ScriptCost.CALLS);
        long micros = after.get(ScriptCost.MICROS) - before.get(ScriptCost.MICROS);
        assertThat(calls).isGreaterThanOrEqualTo(50);
        assertThat(micros).isPositive();
        assertThat(ScriptCost.microsPerCall(Map.of(ScriptCost.CALLS, calls, ScriptCost.MICROS, micros)))
                .hasValue(micros / (double) calls);
    }
}
