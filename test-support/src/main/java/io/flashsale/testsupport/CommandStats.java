package io.flashsale.testsupport;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/** Redis commands counted from two {@code INFO commandstats} readings: what a server was asked in between. */
public final class CommandStats {

    private CommandStats() {
    }

    /** Calls per command in an {@code INFO commandstats} reply. */
    public static Map<String, Long> calls(String commandstats) {
        var calls = new TreeMap<String, Long>();
        for (String line : commandstats.split("\r?\n")) {
            if (line.startsWith("cmdstat_")) {
                String command = line.substring("cmdstat_".length(), line.indexOf(':'));
                String count = Arrays.stream(line.substring(line.indexOf(':') + 1).split(","))
                        .filter(field -> field.startsWith("calls=")).findFirst().orElseThrow();
                calls.put(command, Long.parseLong(count.substring("calls=".length())));
            }
        }
        return calls;
    }

    /** The commands called between two readings, less the INFO that took the second one. */
    public static Map<String, Long> between(Map<String, Long> before, Map<String, Long> after) {
        var delta = new TreeMap<String, Long>();
        after.forEach((command, calls) -> {
            long more = calls - before.getOrDefault(command, 0L);
            if (more > 0) {
                delta.put(command, more);
            }
        });
        delta.computeIfPresent("info", (command, calls) -> calls - 1 == 0 ? null : calls - 1);
        return delta;
    }

    public static double perSecond(Map<String, Long> delta, Duration window) {
        return delta.values().stream().mapToLong(Long::longValue).sum() * 1000.0 / window.toMillis();
    }
}
