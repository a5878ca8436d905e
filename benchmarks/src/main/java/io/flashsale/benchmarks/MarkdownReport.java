package io.flashsale.benchmarks;

import io.flashsale.benchmarks.redis.ScriptCost;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** The figures as docs/benchmarks/results.md: what ran, on what, how busy the machine was, and every run's row. */
final class MarkdownReport {

    static final int TARGET_CLIENTS = 128;

    /** Everything one benchmark run produced. */
    record Figures(BenchmarkSettings settings, Machine machine, Instant startedAt, String loadBefore,
                   String loadAfter, Map<String, String> loadPerStrategy, double redisCeiling, double reserveCeiling,
                   double updateCeiling,
                   List<RunResult> plenty, List<RunResult> sellOut, List<String> failures) {
    }

    private MarkdownReport() {
    }

    static String render(Figures figures, String plentyChart, String sellOutChart) {
        BenchmarkSettings settings = figures.settings();
        StringBuilder md = new StringBuilder();
        md.append("# Inventory strategies side by side: measured figures\n\n");
        md.append("Written by the benchmark (`io.flashsale.benchmarks.BenchmarkMain`); how it works and how to run it: ")
                .append("[../benchmarks.md](../benchmarks.md). Do not edit by hand: run it again.\n\n");
        md.append("- started: ").append(figures.startedAt().truncatedTo(ChronoUnit.SECONDS)).append(", mode `")
                .append(settings.mode()).append("`: ").append(settings.run().toMillis()).append(" ms per run, clients ")
                .append(settings.levels()).append(", sell-out stock ").append(settings.sellOutStock())
                .append(" units, per-buyer limit 1, every fourth attempt repeats a buyer\n");
        md.append("- load average (1, 5, 15 min) before: ").append(figures.loadBefore()).append("; after: ")
                .append(figures.loadAfter()).append("\n");
        figures.machine().lines().forEach(line -> md.append("- ").append(line).append('\n'));
        md.append("- MySQL strategies: a pool of ").append(settings.pool())
                .append(" connections each; the crowd beyond it waits for a connection, as a service's threads would\n");
        if (!figures.failures().isEmpty()) {
            md.append("\n**Strategies that could not run:**\n\n");
            figures.failures().forEach(failure -> md.append("- ").append(failure).append('\n'));
        }

        md.append("\n## Reference ceilings (same run)\n\n| ceiling | per second |\n| --- | ---: |\n");
        md.append("| `redis-benchmark` EVALSHA of `return 1`, ").append(Ceilings.REDIS_BENCHMARK_CLIENTS)
                .append(" clients, no pipelining | ").append(rate(figures.redisCeiling())).append(" |\n");
        md.append("| `redis-benchmark` EVALSHA of Flashsale's `reserve.lua` as strategy 7 sends it (a random new buyer ")
                .append("each call), ").append(Ceilings.REDIS_BENCHMARK_CLIENTS).append(" clients, no pipelining | ")
                .append(rate(figures.reserveCeiling())).append(" |\n");
        md.append("| trivial `UPDATE` on a non-contended row, ").append(Ceilings.UPDATE_CLIENTS)
                .append(" clients, auto-commit | ").append(rate(figures.updateCeiling())).append(" |\n");

        md.append("\n## At ").append(TARGET_CLIENTS).append(" clients, stock that does not sell out\n\n");
        md.append(targets(figures.plenty(), figures.reserveCeiling()));

        md.append("\n## Stock that does not sell out (").append(String.format(Locale.ROOT, "%,d", BenchmarkSettings.PLENTY))
                .append(" units)\n\n![throughput, stock that does not sell out](").append(plentyChart).append(")\n\n");
        md.append(table(figures.plenty()));
        md.append("\n## Stock that sells out during the run (").append(settings.sellOutStock()).append(" units)\n\n")
                .append("![throughput, stock that sells out](").append(sellOutChart).append(")\n\n");
        md.append(table(figures.sellOut()));
        md.append("\nLoad average (1 min) when each strategy started: ");
        md.append(figures.loadPerStrategy().entrySet().stream().map(e -> e.getKey() + ": " + e.getValue())
                .collect(Collectors.joining("; "))).append(".\n");
        md.append("\nColumns: attempts/s counts every answer (taken or refused); latencies are per attempt as the client ")
                .append("saw them; *oversold* and *limit violations* come from the crowd's own books of units handed ")
                .append("out; *left* is what the store itself says remains (negative: it sold units it did not have); ")
                .append("*seen* lists what the strategy counted meanwhile (retries, deadlocks, lock waits; ")
                .append("\"server-wide\" counters include every other client of the server).\n");
        return md.toString();
    }

    private static String targets(List<RunResult> plenty, double reserveCeiling) {
        Optional<RunResult> script = at(plenty, "7 ");
        Optional<RunResult> lock = at(plenty, "4 ");
        OptionalDouble bestMysql = plenty.stream()
                .filter(r -> r.clients() == TARGET_CLIENTS && (r.strategy().startsWith("1 ")
                        || r.strategy().startsWith("2 ") || r.strategy().startsWith("3 ")))
                .mapToDouble(RunResult::throughput).max();
        if (script.isEmpty() || lock.isEmpty() || bestMysql.isEmpty()) {
            return "Strategies 1-4 and 7 did not all run at " + TARGET_CLIENTS + " clients: no ratios.\n";
        }
        double overLock = script.get().throughput() / lock.get().throughput();
        double overMysql = script.get().throughput() / bestMysql.getAsDouble();
        return "| comparison | measured | target | |\n| --- | ---: | ---: | --- |\n"
                + "| Flashsale script / Redis lock | " + ratio(overLock) + " | >= 4x | " + verdict(overLock >= 4) + " |\n"
                + "| Flashsale script / best MySQL strategy | " + ratio(overMysql) + " | >= 20x | "
                + verdict(overMysql >= 20) + " |\n"
                + "| Flashsale script units oversold | " + script.get().oversold() + " | 0 | "
                + verdict(script.get().oversold() == 0) + " |\n"
                + scriptCeiling(script.get(), reserveCeiling, bestMysql.getAsDouble());
    }

    /**
     * The script's own ceiling (redis-benchmark, a client that costs next to nothing) and what Redis itself spent per
     * script in strategy 7's run, set against the rate the 20x target asks for: a bound no JVM client can beat.
     */
    private static String scriptCeiling(RunResult script, double reserveCeiling, double bestMysql) {
        StringBuilder text = new StringBuilder("\nThe target asks the script for ").append(rate(20 * bestMysql))
                .append(" reservations/s (20x the best MySQL strategy).");
        if (reserveCeiling > 0) {
            text.append(" Redis answers the same script at ").append(rate(reserveCeiling))
                    .append("/s to redis-benchmark in this run (").append(ratio(reserveCeiling / bestMysql))
                    .append(" the best MySQL strategy), its client in C on the same cores.");
        }
        OptionalDouble micros = ScriptCost.microsPerCall(script.counters());
        if (micros.isPresent()) {
            text.append(" In strategy 7's run Redis spent ").append(String.format(Locale.ROOT, "%.1f",
                    micros.getAsDouble())).append(" µs inside each script call (INFO commandstats: wall time, so time ")
                    .append("the server was descheduled mid-script counts too): at most ").append(rate(1e6
                    / micros.getAsDouble())).append(" calls/s of one core at that cost, before any network I/O.");
        }
        return text.append('\n').toString();
    }

    private static Optional<RunResult> at(List<RunResult> results, String prefix) {
        return results.stream().filter(r -> r.clients() == TARGET_CLIENTS && r.strategy().startsWith(prefix)).findFirst();
    }

    private static String table(List<RunResult> results) {
        StringBuilder md = new StringBuilder("| strategy | clients | attempts/s | p50 ms | p99 ms | p99.9 ms | taken "
                + "| sold out | limit | gave up | errors | oversold | limit violations | left | seen |\n"
                + "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
        for (RunResult r : results) {
            md.append("| ").append(r.strategy()).append(" | ").append(r.clients()).append(" | ")
                    .append(rate(r.throughput())).append(" | ").append(millis(r.p50Micros())).append(" | ")
                    .append(millis(r.p99Micros())).append(" | ").append(millis(r.p999Micros())).append(" | ")
                    .append(count(r.count(Take.TAKEN))).append(" | ").append(count(r.count(Take.SOLD_OUT))).append(" | ")
                    .append(count(r.count(Take.LIMIT))).append(" | ").append(count(r.count(Take.GAVE_UP))).append(" | ")
                    .append(count(r.count(Take.ERROR))).append(" | ").append(mark(r.oversold())).append(" | ")
                    .append(mark(r.limitViolations())).append(" | ").append(count(r.unitsLeft())).append(" | ")
                    .append(seen(r)).append(" |\n");
        }
        return md.toString();
    }

    private static String seen(RunResult r) {
        String counters = new TreeMap<>(r.counters()).entrySet().stream().filter(e -> e.getValue() != 0)
                .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
        String error = r.firstError() == null ? "" : "first error: " + r.firstError().replace('|', '/');
        return String.join(counters.isEmpty() || error.isEmpty() ? "" : "; ", counters, error);
    }

    /** A count that must be 0 for a correct strategy: anything else stands out. */
    private static String mark(long count) {
        return count == 0 ? "0" : "**" + count(count) + "**";
    }

    private static String count(long count) {
        return String.format(Locale.ROOT, "%,d", count);
    }

    private static String rate(double perSecond) {
        return perSecond < 0 ? "not measured" : String.format(Locale.ROOT, "%,.0f", perSecond);
    }

    private static String millis(long micros) {
        return String.format(Locale.ROOT, "%.2f", micros / 1000.0);
    }

    private static String ratio(double ratio) {
        return String.format(Locale.ROOT, "%.1fx", ratio);
    }

    private static String verdict(boolean met) {
        return met ? "met" : "**not met**";
    }
}
