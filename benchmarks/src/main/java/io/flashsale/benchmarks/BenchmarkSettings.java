package io.flashsale.benchmarks;

import io.flashsale.benchmarks.mysql.MysqlServer;
import io.flashsale.benchmarks.redis.RedisServer;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * What one benchmark run does, from system properties ({@code -Dflashsale.bench.*}). Two modes: {@code quick}
 * (2 crowd sizes, 1 s a run: a minute or two, for a check after a change) and {@code full} (4 crowd sizes, 5 s a
 * run: the published figures, written to docs/benchmarks; quick runs write to benchmarks/target/quick-report). Any
 * single setting can be overridden.
 *
 * @param levels       crowd sizes (client threads)
 * @param run          how long each (strategy, crowd, stock) run lasts
 * @param strategies   which of the eight strategies run, by number
 * @param sellOutStock units of the stock that sells out during a run
 * @param pool         connections per MySQL strategy (and Redisson's pool): the crowd beyond it waits for one
 */
public record BenchmarkSettings(String mode, List<Integer> levels, Duration run, List<Integer> strategies,
                                long sellOutStock, int pool, long ceilingRequests, RedisServer redis,
                                MysqlServer mysql, Path jar, Path out) {

    /** The stock that does not sell out: the largest a sale may have. */
    public static final long PLENTY = 1_000_000_000L;

    public static BenchmarkSettings fromSystemProperties() {
        String mode = property("mode", "quick");
        boolean full = switch (mode) {
            case "full" -> true;
            case "quick" -> false;
            default -> throw new IllegalArgumentException("flashsale.bench.mode is quick or full, was " + mode);
        };
        // Relative paths are the repository root's (the build passes it; the module directory is the working one).
        Path root = Path.of(property("root", ".")).toAbsolutePath().normalize();
        return new BenchmarkSettings(mode,
                numbers(property("levels", full ? "8,32,128,512" : "8,128")),
                Duration.ofMillis(Long.parseLong(property("run-millis", full ? "5000" : "1000"))),
                numbers(property("strategies", "1,2,3,4,5,6,7,8")),
                Long.parseLong(property("sell-out-stock", "500")),
                Integer.parseInt(property("pool", "32")),
                Long.parseLong(property("ceiling-requests", full ? "200000" : "50000")),
                new RedisServer(property("redis.host", "127.0.0.1"), Integer.parseInt(property("redis.port", "6379"))),
                new MysqlServer(property("db.host", "127.0.0.1"), Integer.parseInt(property("db.port", "3306")),
                        property("db.user", "root"), property("db.password", "")),
                root.resolve(property("jar", "bootstrap/target/flashsale.jar")),
                root.resolve(property("out", full ? "docs/benchmarks" : "benchmarks/target/quick-report")));
    }

    /** A blank value (the build passes every setting, set or not) means the fallback. */
    private static String property(String name, String fallback) {
        String value = System.getProperty("flashsale.bench." + name, "");
        return value.isBlank() ? fallback : value.trim();
    }

    private static List<Integer> numbers(String list) {
        return Arrays.stream(list.split(",")).map(String::trim).map(Integer::valueOf).toList();
    }
}
