package io.flashsale.testsupport;

import io.flashsale.embedded.EmbeddedRedis;
import io.flashsale.testsupport.RedisServerProcess.Persistence;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server of a test's own on the binary a machine with only a JDK gets (this module's failsafe forces the packaged
 * one): it keeps what its persistence promises across a SIGKILL, forgets everything when wiped, and answers nothing
 * while frozen.
 */
class RedisServerProcessIT {

    @Test
    void thePackagedBinaryIsTheDemoModesRedis() {
        assertThat(RedisServerBinary.path().toString()).doesNotEndWith("/usr/bin/redis-server");
        try (RedisServerProcess redis = RedisServerProcess.onFreePort(Persistence.NONE).start()) {
            assertThat(onServer(redis, commands -> commands.info("server")))
                    .contains("redis_version:" + EmbeddedRedis.BUNDLED_VERSION + ".");
        }
    }

    @Test
    void givenAofAlways_whenKilledAndStartedAgain_thenTheWriteIsThere_andAWipeForgetsIt() {
        try (RedisServerProcess redis = RedisServerProcess.onFreePort(Persistence.AOF_ALWAYS).start()) {
            onServer(redis, commands -> commands.set("kept", "yes"));

            redis.restart();
            assertThat(onServer(redis, commands -> commands.get("kept"))).isEqualTo("yes");

            redis.restartEmpty();
            assertThat(onServer(redis, commands -> commands.get("kept"))).isNull();
        }
    }

    @Test
    void givenNoPersistence_whenKilled_thenItIsDownAndComesBackEmpty() {
        try (RedisServerProcess redis = RedisServerProcess.onFreePort(Persistence.NONE).start()) {
            onServer(redis, commands -> commands.set("lost", "yes"));

            redis.kill();
            assertThat(redis.isAlive()).isFalse();
            assertThat(pingAnswered(redis)).isFalse();

            redis.start();
            assertThat(onServer(redis, commands -> commands.get("lost"))).isNull();
        }
    }

    @Test
    void givenAFrozenServer_thenItAnswersNothingUntilThawed_andAKillEndsItAnyway() {
        try (RedisServerProcess redis = RedisServerProcess.onFreePort(Persistence.NONE).start()) {
            redis.freeze();
            assertThat(pingAnswered(redis)).as("frozen").isFalse();
            redis.thaw();
            assertThat(pingAnswered(redis)).as("thawed").isTrue();

            redis.freeze();
            redis.kill();
            assertThat(redis.isAlive()).isFalse();
        }
    }

    @Test
    void closeDeletesTheTemporaryDirectory() {
        RedisServerProcess redis = RedisServerProcess.onFreePort(Persistence.AOF_EVERYSEC).start();
        assertThat(redis.directory()).isDirectory();

        redis.close();
        assertThat(Files.exists(redis.directory().getParent())).isFalse();
    }

    private static String onServer(RedisServerProcess redis, Function<RedisCommands<String, String>, String> call) {
        RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", redis.port()));
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return call.apply(connection.sync());
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    private static boolean pingAnswered(RedisServerProcess redis) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", redis.port()), 500);
            socket.setSoTimeout(500);
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            return socket.getInputStream().read() == '+';
        } catch (IOException refusedOrSilent) {
            return false;
        }
    }
}
