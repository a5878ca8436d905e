package io.flashsale.benchmarks;

import io.flashsale.benchmarks.mysql.MysqlServer;
import io.flashsale.benchmarks.redis.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/** What the figures were measured on, and how busy the machine was: figures mean little without it. */
record Machine(int cores, String cpu, String memory, String jdk, String os, String redis, String mariadb) {

    static Machine describe(RedisServer redisServer, MysqlServer mysqlServer) {
        return new Machine(Runtime.getRuntime().availableProcessors(),
                procValue(Path.of("/proc/cpuinfo"), "model name"), gibibytes(procValue(Path.of("/proc/meminfo"), "MemTotal")),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                redisVersion(redisServer), mariadbVersion(mysqlServer));
    }

    /** The 1, 5 and 15 minute load averages, as {@code uptime} shows them. */
    static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return fields[0] + ", " + fields[1] + ", " + fields[2];
        } catch (IOException | RuntimeException unreadable) {
            return "unknown";
        }
    }

    List<String> lines() {
        return List.of("cores: " + cores, "CPU: " + cpu, "memory: " + memory, "JDK: " + jdk, "OS: " + os,
                "Redis: " + redis, "MariaDB/MySQL: " + mariadb,
                "client, servers and service share the cores; other work on the machine shows in the load average");
    }

    private static String redisVersion(RedisServer server) {
        RedisClient client = RedisClient.create(server.uri());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return connection.sync().info("server").lines().filter(line -> line.startsWith("redis_version:"))
                    .map(line -> line.substring("redis_version:".length()).trim()).findFirst().orElse("unknown");
        } finally {
            client.shutdown();
        }
    }

    private static String mariadbVersion(MysqlServer server) {
        try (Connection connection = DriverManager.getConnection(server.url(""), server.user(), server.password());
             Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT VERSION()")) {
            return row.next() ? row.getString(1) : "unknown";
        } catch (SQLException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    /** "24684084 kB" as "23.5 GiB". */
    private static String gibibytes(String kilobytes) {
        try {
            return String.format(Locale.ROOT, "%.1f GiB",
                    Long.parseLong(kilobytes.replace("kB", "").trim()) / (1024.0 * 1024.0));
        } catch (NumberFormatException unexpected) {
            return kilobytes;
        }
    }

    private static String procValue(Path file, String key) {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.filter(line -> line.startsWith(key)).map(line -> line.substring(line.indexOf(':') + 1).trim())
                    .findFirst().orElse("unknown");
        } catch (IOException | RuntimeException unreadable) {
            return "unknown";
        }
    }
}
