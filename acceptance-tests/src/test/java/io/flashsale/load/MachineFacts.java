package io.flashsale.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** What the figures were measured on: they mean little without it. */
record MachineFacts(int cores, String cpu, String memory, String loadAverage, String jdk, String os, String redis,
                    String mariadb, String kafka) {

    static MachineFacts describe(String redisVersion, String mariadbVersion, String kafkaVersion) {
        return new MachineFacts(Runtime.getRuntime().availableProcessors(),
                firstValue(Path.of("/proc/cpuinfo"), "model name"),
                firstValue(Path.of("/proc/meminfo"), "MemTotal"),
                currentLoadAverage(),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                redisVersion, mariadbVersion, kafkaVersion);
    }

    List<String> lines() {
        return List.of(
                "cores (available to the JVM): " + cores,
                "CPU: " + cpu,
                "memory: " + memory,
                "load average at the end (1, 5, 15 min; other work on the box shows here): " + loadAverage,
                "JDK (harness and service): " + jdk,
                "OS: " + os,
                "Redis: " + redis,
                "MariaDB: " + mariadb,
                "Kafka: " + kafka);
    }

    /** The 1, 5 and 15 minute load averages now. */
    static String loadAverageNow() {
        return currentLoadAverage();
    }

    private static String currentLoadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException | RuntimeException unreadable) {
            return "unknown";
        }
    }

    /** The value of the first "key : value" line of a /proc file, or "unknown" off Linux. */
    private static String firstValue(Path file, String key) {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.filter(line -> line.startsWith(key))
                    .map(line -> line.substring(line.indexOf(':') + 1).trim())
                    .findFirst().orElse("unknown");
        } catch (IOException | RuntimeException unreadable) {
            return "unknown";
        }
    }
}
