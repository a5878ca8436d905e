package io.flashsale.benchmarks;

import io.flashsale.benchmarks.mysql.MysqlServer;
import io.flashsale.benchmarks.redis.RedisServer;
import io.flashsale.benchmarks.redis.ReserveScriptCeiling;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What this machine can do at best, measured in the same run: the roofs the strategies live under. */
public final class Ceilings {

    public static final int REDIS_BENCHMARK_CLIENTS = 50;
    public static final int UPDATE_CLIENTS = 32;
    private static final Pattern PER_SECOND = Pattern.compile("([0-9.]+) requests per second");

    private Ceilings() {
    }

    /** {@code redis-benchmark} running EVALSHA of {@code return 1}, no pipelining; -1 when the tool is missing. */
    public static double redisEvalsha(RedisServer server, long requests) {
        RedisClient client = RedisClient.create(server.uri());
        String sha;
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            sha = connection.sync().scriptLoad("return 1");
        } finally {
            client.shutdown();
        }
        return redisBenchmark(server, requests, List.of("EVALSHA", sha, "0"));
    }

    /**
     * {@code redis-benchmark} running the production reserve script's EVALSHA ({@link ReserveScriptCeiling}), a fresh
     * random buyer each call, no pipelining: the most reservations this Redis answers with a client that costs next to
     * nothing; -1 when the tool is missing.
     */
    public static double redisReserveScript(RedisServer server, long requests) {
        try (ReserveScriptCeiling script = new ReserveScriptCeiling(server)) {
            return redisBenchmark(server, requests, script.command());
        }
    }

    private static double redisBenchmark(RedisServer server, long requests, List<String> redisCommand) {
        List<String> command = new ArrayList<>(List.of("redis-benchmark", "-h", server.host(), "-p",
                Integer.toString(server.port()), "-c", Integer.toString(REDIS_BENCHMARK_CLIENTS), "-n",
                Long.toString(requests), "-r", "1000000000", "-q"));
        command.addAll(redisCommand);
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(5, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                return -1;
            }
            Matcher figure = PER_SECOND.matcher(output);
            double last = -1;
            while (figure.find()) {
                last = Double.parseDouble(figure.group(1));
            }
            return last;
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** {@code UPDATE ... SET n = n + 1 WHERE id = ?} with auto-commit, each client on a row of its own. */
    public static double uncontendedUpdate(MysqlServer server, Duration duration) {
        String database = "flashsale_bench_ceiling_" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36);
        try (Connection admin = DriverManager.getConnection(server.url(""), server.user(), server.password());
             Statement statement = admin.createStatement()) {
            statement.execute("CREATE DATABASE `" + database + "`");
            try {
                statement.execute("CREATE TABLE `" + database + "`.counter (id INT PRIMARY KEY, n BIGINT NOT NULL)"
                        + " ENGINE=InnoDB");
                for (int id = 0; id < UPDATE_CLIENTS; id++) {
                    statement.execute("INSERT INTO `" + database + "`.counter VALUES (" + id + ", 0)");
                }
                return updatesPerSecond(server, database, duration);
            } finally {
                statement.execute("DROP DATABASE IF EXISTS `" + database + "`");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot measure the UPDATE ceiling", e);
        }
    }

    private static double updatesPerSecond(MysqlServer server, String database, Duration duration) {
        LongAdder updates = new LongAdder();
        List<Thread> clients = new ArrayList<>();
        long began = System.nanoTime();
        long until = began + duration.toNanos();
        for (int id = 0; id < UPDATE_CLIENTS; id++) {
            int row = id;
            clients.add(Thread.ofPlatform().name("ceiling-" + id).start(() -> {
                try (Connection connection = DriverManager.getConnection(server.url(database), server.user(),
                        server.password());
                     PreparedStatement update = connection.prepareStatement(
                             "UPDATE counter SET n = n + 1 WHERE id = ?")) {
                    update.setInt(1, row);
                    while (System.nanoTime() < until) {
                        update.executeUpdate();
                        updates.increment();
                    }
                } catch (SQLException e) {
                    throw new IllegalStateException("UPDATE ceiling client failed", e);
                }
            }));
        }
        for (Thread client : clients) {
            try {
                client.join(duration.plusMinutes(1));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
        return updates.sum() / ((System.nanoTime() - began) / 1e9);
    }
}
