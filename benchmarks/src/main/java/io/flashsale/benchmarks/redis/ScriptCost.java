package io.flashsale.benchmarks.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;

import java.util.Map;
import java.util.OptionalDouble;

/**
 * Redis's own running totals of EVALSHA calls and the microseconds it spent in them (INFO commandstats, server-wide:
 * every client's scripts count). Over a run of strategy 7 alone their quotient is what one reserve script costs the
 * server, network and client aside: the most reservations one Redis core could answer, whatever the client does.
 */
public final class ScriptCost implements AutoCloseable {

    public static final String CALLS = "redis EVALSHA calls (server-wide)";
    public static final String MICROS = "redis EVALSHA us (server-wide)";

    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;

    ScriptCost(RedisServer server) {
        this.client = RedisClient.create(server.uri());
        this.connection = client.connect();
    }

    /** Microseconds Redis spent per EVALSHA over a run whose counters differences these are; empty without calls. */
    public static OptionalDouble microsPerCall(Map<String, Long> run) {
        long calls = run.getOrDefault(CALLS, 0L);
        return calls == 0 ? OptionalDouble.empty() : OptionalDouble.of(run.getOrDefault(MICROS, 0L) / (double) calls);
    }

    /** {@link #CALLS} and {@link #MICROS} as Redis counts them now (0 before the first EVALSHA). */
    Map<String, Long> totals() {
        for (String line : connection.sync().info("commandstats").lines().toList()) {
            if (line.startsWith("cmdstat_evalsha:")) {
                return Map.of(CALLS, field(line, "calls"), MICROS, field(line, "usec"));
            }
        }
        return Map.of(CALLS, 0L, MICROS, 0L);
    }

    /** {@code name=value} of a line such as {@code cmdstat_evalsha:calls=3,usec=90,usec_per_call=30.00,...}. */
    static long field(String line, String name) {
        for (String pair : line.substring(line.indexOf(':') + 1).split(",")) {
            int equals = pair.indexOf('=');
            if (pair.substring(0, equals).equals(name)) {
                return Long.parseLong(pair.substring(equals + 1));
            }
        }
        throw new IllegalArgumentException("no " + name + " in " + line);
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }
}
