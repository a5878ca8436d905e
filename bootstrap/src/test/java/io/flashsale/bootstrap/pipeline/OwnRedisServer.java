package io.flashsale.bootstrap.pipeline;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@code redis-server} of this test's own, on a free port, with nothing persisted unless a test starts it with
 * persistence flags: a test may SIGKILL it and start it again, empty or on the same data directory, on the same
 * port. The shared Redis is never touched.
 */
final class OwnRedisServer implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

    private final int port;
    private final Path dir;
    private Process process;

    private OwnRedisServer(int port, Path dir) {
        this.port = port;
        this.dir = dir;
    }

    /** A port and a directory for a server that is not started yet. */
    static OwnRedisServer onFreePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return new OwnRedisServer(socket.getLocalPort(), Files.createTempDirectory("flashsale-own-redis"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    int port() {
        return port;
    }

    synchronized OwnRedisServer start() {
        return startWith(dir, List.of("--save", "", "--appendonly", "no"));
    }

    /**
     * Starts the server on {@code dataDir} with {@code persistence} flags (e.g. {@code --appendonly yes}), unless it
     * runs; returns once it answers PING, so after an append-only file was read back in full.
     */
    synchronized OwnRedisServer startWith(Path dataDir, List<String> persistence) {
        if (process != null && process.isAlive()) {
            return this;
        }
        List<String> command = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(port), "--bind",
                "127.0.0.1", "--dir", dataDir.toString(), "--appendfilename", "flashsale.aof"));
        command.addAll(persistence);
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dataDir.resolve("redis-" + port + ".log").toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start redis-server (is it installed?)", e);
        }
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!answers()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("redis-server on port " + port + " did not start");
            }
            sleep(20);
        }
        return this;
    }

    /** SIGKILL: Redis dies as in a crash, everything it held is gone. */
    synchronized void kill() {
        if (process != null) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private boolean answers() {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(500);
            socket.getOutputStream().write("PING\r\n".getBytes());
            byte[] reply = new byte[7];
            int read = socket.getInputStream().read(reply);
            // -LOADING while an append-only file is read back
            return read > 0 && new String(reply, 0, read).startsWith("+PONG");
        } catch (IOException notYet) {
            return false;
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        kill();
    }
}
