package io.flashsale.embedded;

import redis.embedded.RedisServer;
import redis.embedded.core.ExecutableProvider;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The Redis binary that embedded-redis packages (6.2, Linux/macOS), on the loopback address. Every write is kept
 * in an append-only file in the data directory: the outbox stream holds accepted reservations until the relay
 * has handed them to Kafka, so a demo that restarts must not lose it.
 */
public final class EmbeddedRedis implements AutoCloseable {

    /** The Redis line the packaged binary belongs to; every script of the service must run on it. */
    public static final String BUNDLED_VERSION = "6.2";

    private final RedisServer server;
    private final ServerAddress address;
    private final Path dataDirectory;

    private EmbeddedRedis(RedisServer server, ServerAddress address, Path dataDirectory) {
        this.server = server;
        this.address = address;
        this.dataDirectory = dataDirectory;
    }

    /**
     * @param dataDirectory where the append-only file lives; created when absent, kept across restarts
     * @param port          0 for any free port
     */
    public static EmbeddedRedis start(Path dataDirectory, int port) {
        Path directory = dataDirectory.toAbsolutePath().normalize();
        int chosen = FreePort.orAny(port);
        try {
            Files.createDirectories(directory);
            RedisServer server = RedisServer.newRedisServer()
                    .bind(ServerAddress.LOOPBACK)
                    .port(chosen)
                    .setting("dir \"" + directory + "\"")
                    .setting("appendonly yes")
                    .setting("appendfsync everysec")
                    .setting("save \"\"")
                    .setting("protected-mode yes")
                    .onShutdownForceStop(true)
                    .build();
            server.start();
            return new EmbeddedRedis(server, new ServerAddress(ServerAddress.LOOPBACK, chosen), directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the embedded Redis on port " + chosen + " with data in "
                    + directory, e);
        }
    }

    /**
     * The packaged {@code redis-server} itself, unpacked to a temporary file (deleted when the JVM exits), for callers
     * that run it with their own arguments: tests that kill, freeze or cluster a Redis of their own.
     */
    public static Path packagedBinary() {
        try {
            return ExecutableProvider.newJarResourceProvider().get().toPath();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unpack embedded-redis's redis-server", e);
        }
    }

    public ServerAddress address() {
        return address;
    }

    public Path dataDirectory() {
        return dataDirectory;
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot stop the embedded Redis on " + address, e);
        }
    }
}
