package io.flashsale.benchmarks;

import io.flashsale.adapter.redis.internal.ReserveScriptCall;
import io.flashsale.benchmarks.redis.RedisServer;
import io.flashsale.benchmarks.redis.ReserveScriptCeiling;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The reserve script's ceiling sends the production script a real reservation, a new one for each random value. */
@Timeout(120)
class ReserveScriptCeilingIT {

    @Test
    void givenTheCeilingsCommand_whenRunWithARandomValue_thenItReservesAndTheSameValueAgainIsAReplay() {
        RedisServer server = Servers.redis();
        RedisClient client = RedisClient.create(server.uri());
        try (ReserveScriptCeiling ceiling = new ReserveScriptCeiling(server);
             StatefulRedisConnection<String, String> connection = client.connect()) {
            List<String> command = ceiling.command();
            assertThat(command.getFirst()).isEqualTo("EVALSHA");
            assertThat(String.join(" ", command)).contains("__rand_int__");

            assertThat(call(connection, command, "000000000001")).isEqualTo("RESERVED");
            assertThat(call(connection, command, "000000000002")).isEqualTo("RESERVED");
            assertThat(call(connection, command, "000000000001")).isEqualTo("REPLAYED");
        } finally {
            client.shutdown();
        }
    }

    @Test
    void givenRedisBenchmarkOnThePath_whenTheReserveScriptsCeilingIsMeasured_thenItIsARate() {
        assumeTrue(Arrays.stream(System.getenv("PATH").split(":"))
                .anyMatch(dir -> Files.isExecutable(Path.of(dir, "redis-benchmark"))), "redis-benchmark not on PATH");

        assertThat(Ceilings.redisReserveScript(Servers.redis(), 2_000)).isPositive();
    }

    /**
     * The command as redis-benchmark would send it with {@code value} drawn for every placeholder: the code of its one
     * attempt's reply (the script answers a batch, one reply per attempt, ADR 68; read as the adapter reads it, ADR 103).
     */
    private static String call(StatefulRedisConnection<String, String> connection, List<String> command,
                               String value) {
        List<String> filled = command.stream().map(part -> part.replace("__rand_int__", value)).toList();
        int keyCount = Integer.parseInt(filled.get(2));
        String[] keys = filled.subList(3, 3 + keyCount).toArray(String[]::new);
        String[] arguments = filled.subList(3 + keyCount, filled.size()).toArray(String[]::new);
        List<Object> replies = connection.sync().evalsha(filled.get(1), ScriptOutputType.MULTI, keys, arguments);
        assertThat(replies).hasSize(1);
        return String.valueOf(ReserveScriptCall.reply(replies, 0).getFirst());
    }
}
