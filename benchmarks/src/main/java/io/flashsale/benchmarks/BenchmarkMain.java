package io.flashsale.benchmarks;

import io.flashsale.benchmarks.http.FlashsaleHttpStrategy;
import io.flashsale.benchmarks.mysql.MysqlConditionalStrategy;
import io.flashsale.benchmarks.mysql.MysqlOptimisticStrategy;
import io.flashsale.benchmarks.mysql.MysqlPessimisticStrategy;
import io.flashsale.benchmarks.redis.FlashsaleScriptStrategy;
import io.flashsale.benchmarks.redis.Interleaving;
import io.flashsale.benchmarks.redis.NaiveDecrThenIncrStrategy;
import io.flashsale.benchmarks.redis.NaiveGetThenDecrStrategy;
import io.flashsale.benchmarks.redis.RedissonLockStrategy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The benchmark's entry point: the reference ceilings, then every chosen strategy at every crowd size on a stock
 * that does not sell out and on one that does, then docs/benchmarks/results.md and two charts. Run it with
 * {@code ./mvnw -B -pl benchmarks -am -DskipTests -Pbenchmark verify [-Dflashsale.bench.mode=full]}.
 */
public final class BenchmarkMain {

    private static final int WARM_UP_CLIENTS = 32;
    private static final Duration WARM_UP = Duration.ofSeconds(3);

    private BenchmarkMain() {
    }

    public static void main(String[] args) throws IOException {
        BenchmarkSettings settings = BenchmarkSettings.fromSystemProperties();
        Files.createDirectories(settings.out());
        Instant startedAt = Instant.now();
        String loadBefore = Machine.loadAverage();
        Machine machine = Machine.describe(settings.redis(), settings.mysql());
        say("mode %s, clients %s, %d ms a run; load average %s", settings.mode(), settings.levels(),
                settings.run().toMillis(), loadBefore);

        double redisCeiling = Ceilings.redisEvalsha(settings.redis(), settings.ceilingRequests());
        say("ceiling: redis-benchmark EVALSHA %.0f/s", redisCeiling);
        double reserveCeiling = Ceilings.redisReserveScript(settings.redis(), settings.ceilingRequests());
        say("ceiling: redis-benchmark EVALSHA reserve.lua %.0f/s", reserveCeiling);
        double updateCeiling = Ceilings.uncontendedUpdate(settings.mysql(), settings.run());
        say("ceiling: uncontended UPDATE %.0f/s", updateCeiling);

        List<RunResult> plenty = new ArrayList<>();
        List<RunResult> sellOut = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        Map<String, String> loadPerStrategy = new LinkedHashMap<>();
        for (int number : settings.strategies()) {
            try (InventoryStrategy strategy = create(number, settings)) {
                loadPerStrategy.put(Integer.toString(number), Machine.loadAverage().split(",")[0]);
                warmUp(strategy, settings);
                for (int clients : settings.levels()) {
                    plenty.add(measure(strategy, SaleItem.fresh(BenchmarkSettings.PLENTY, 1), clients, settings));
                    sellOut.add(measure(strategy, SaleItem.fresh(settings.sellOutStock(), 1), clients, settings));
                }
            } catch (RuntimeException e) {
                failures.add("strategy " + number + ": " + e);
                say("strategy %d failed: %s", number, e);
            }
        }

        var figures = new MarkdownReport.Figures(settings, machine, startedAt, loadBefore, Machine.loadAverage(),
                loadPerStrategy, redisCeiling, reserveCeiling, updateCeiling, plenty, sellOut, failures);
        ThroughputChart.write("Stock that does not sell out: attempts/s by crowd size", plenty,
                settings.out().resolve("throughput-plenty.png"));
        ThroughputChart.write("Stock that sells out (" + settings.sellOutStock() + " units): attempts/s by crowd size",
                sellOut, settings.out().resolve("throughput-sell-out.png"));
        Path results = settings.out().resolve("results.md");
        Files.writeString(results, MarkdownReport.render(figures, "throughput-plenty.png", "throughput-sell-out.png"));
        say("wrote %s; load average %s", results, figures.loadAfter());
    }

    static InventoryStrategy create(int number, BenchmarkSettings settings) {
        return switch (number) {
            case 1 -> new MysqlPessimisticStrategy(settings.mysql(), settings.pool());
            case 2 -> new MysqlOptimisticStrategy(settings.mysql(), settings.pool());
            case 3 -> new MysqlConditionalStrategy(settings.mysql(), settings.pool());
            case 4 -> new RedissonLockStrategy(settings.redis(), settings.pool());
            case 5 -> new NaiveGetThenDecrStrategy(settings.redis(), Interleaving.NONE);
            case 6 -> new NaiveDecrThenIncrStrategy(settings.redis(), Interleaving.NONE);
            case 7 -> new FlashsaleScriptStrategy(settings.redis());
            case 8 -> new FlashsaleHttpStrategy(settings.jar(), settings.mysql(), settings.redis());
            default -> throw new IllegalArgumentException("strategies are numbered 1 to 8, not " + number);
        };
    }

    /** JIT, connection pools and caches warm before anything counts; the figures of this run are dropped. */
    private static void warmUp(InventoryStrategy strategy, BenchmarkSettings settings) {
        SaleItem item = SaleItem.fresh(BenchmarkSettings.PLENTY, 1);
        strategy.stock(item);
        Duration warmUp = settings.run().compareTo(WARM_UP) < 0 ? settings.run() : WARM_UP;
        Crowd.run(strategy, item, WARM_UP_CLIENTS, Crowd.Budget.lasting(warmUp));
    }

    private static RunResult measure(InventoryStrategy strategy, SaleItem item, int clients,
                                     BenchmarkSettings settings) {
        strategy.stock(item);
        RunResult result = Crowd.run(strategy, item, clients, Crowd.Budget.lasting(settings.run()));
        say("%-34s %4d clients, stock %,13d: %,9.0f/s p99 %7.2f ms taken %,8d oversold %d limit violations %d%s",
                result.strategy(), clients, item.stock(), result.throughput(), result.p99Micros() / 1000.0,
                result.unitsTaken(), result.oversold(), result.limitViolations(),
                result.firstError() == null ? "" : " first error: " + result.firstError());
        return result;
    }

    private static void say(String format, Object... values) {
        System.out.println("[bench] " + String.format(Locale.ROOT, format, values));
    }
}
