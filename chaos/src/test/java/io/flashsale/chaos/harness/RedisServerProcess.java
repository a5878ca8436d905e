package io.flashsale.chaos.harness;

import io.flashsale.testsupport.ServiceProcess;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * This machine's {@code redis-server} on a free port with its own data directory and {@code appendfsync everysec}:
 * the mode the service documents, whose loss window on a SIGKILL is about the last second of writes. A restart
 * replays the AOF; {@link #restartEmpty()} loses everything, as a replaced node would.
 */
public final class RedisServerProcess implements AutoCloseable {

    private static final Duration START_PATIENCE = Duration.ofSeconds(20);

    private final int port = ServiceProcess.freePort();
    private final Path directory;
    private final Path log;
    private ChildProcess process;

    public RedisServerProcess(Path workDirectory) {
        try {
            this.directory = Files.createDirectories(workDirectory.resolve("redis-" + port));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.log = workDirectory.resolve("redis-" + port + ".log");
        start();
    }

    private void start() {
        process = ChildProcess.start(List.of("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--dir", directory.toString(), "--appendonly", "yes", "--appendfsync", "everysec", "--save", "",
                "--protected-mode", "no"), log).awaitListening(port, START_PATIENCE, log);
    }

    public int port() {
        return port;
    }

    public void kill() {
        process.killEvenIfFrozen();
    }

    /** SIGKILL, then a start on the same AOF: what a crash and a supervisor's restart do. */
    public void restart() {
        if (process.isAlive()) {
            kill();
        }
        start();
    }

    /** SIGKILL and a start on an empty directory: the node came back without its data. */
    public void restartEmpty() {
        kill();
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).filter(path -> !path.equals(directory)).forEach(path -> {
                try {
                    Files.delete(path);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        start();
    }

    public void freeze() {
        process.freeze();
    }

    public void thaw() {
        process.thaw();
    }

    /** SIGCONT if it is alive (a no-op for a running process). */
    public void thawQuietly() {
        if (process.isAlive()) {
            process.thaw();
        }
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() {
        process.killEvenIfFrozen();
    }
}
