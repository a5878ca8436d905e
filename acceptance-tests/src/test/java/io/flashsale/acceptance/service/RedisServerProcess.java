package io.flashsale.acceptance.service;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A {@code redis-server} of a scenario's own on a free port, nothing persisted, so the scenario may SIGKILL it and
 * start it again empty on the same port. The shared Redis is never touched.
 */
public final class RedisServerProcess implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

    private final int port = ServiceProcess.freePort();
    private final Path dir;
    private Process process;

    public RedisServerProcess() {
        try {
            dir = Files.createTempDirectory("flashsale-scenario-redis");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return port;
    }

    public synchronized void start() {
        try {
            process = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                    "--dir", dir.toString(), "--save", "", "--appendonly", "no")
                    .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start redis-server (is it installed?)", e);
        }
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!answers()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("redis-server on port " + port + " did not start");
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /** SIGKILL, as in a crash: everything it held is gone. */
    public synchronized void kill() {
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
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            byte[] reply = new byte[7];
            int read = socket.getInputStream().read(reply);
            return read > 0 && new String(reply, 0, read, StandardCharsets.US_ASCII).startsWith("+PONG");
        } catch (IOException notYet) {
            return false;
        }
    }

    @Override
    public void close() {
        kill();
    }
}
