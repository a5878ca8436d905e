package io.flashsale.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A {@code redis-server} of a test's own ({@link RedisServerBinary}: the PATH's, else the packaged one) on its own
 * port and directory with the persistence the test asks for. The test owns the process: SIGKILL ({@link #kill}),
 * SIGSTOP / SIGCONT ({@link #freeze} / {@link #thaw}), a start again on the same directory (the AOF is replayed) or on
 * a wiped one. The shared Redis is never touched. Everything the server prints is appended to {@link #log()}.
 */
public final class RedisServerProcess implements AutoCloseable {

    /** What the server keeps across a SIGKILL. */
    public enum Persistence {
        NONE("--appendonly", "no", "--save", ""),
        AOF_EVERYSEC("--appendonly", "yes", "--appendfsync", "everysec", "--save", ""),
        AOF_ALWAYS("--appendonly", "yes", "--appendfsync", "always", "--save", "");

        private final List<String> arguments;

        Persistence(String... arguments) {
            this.arguments = List.of(arguments);
        }
    }

    private static final Duration START_PATIENCE = Duration.ofSeconds(20);
    private static final Duration KILL_PATIENCE = Duration.ofSeconds(30);

    private final int port;
    private final Path directory;
    private final Path log;
    private final boolean ownsDirectory;
    private final List<String> arguments;
    private Process process;
    private boolean frozen;

    private RedisServerProcess(int port, Path directory, Path log, boolean ownsDirectory, List<String> arguments) {
        this.port = port;
        this.directory = directory;
        this.log = log;
        this.ownsDirectory = ownsDirectory;
        this.arguments = arguments;
    }

    /** Not started yet, on a free port and a temporary directory (deleted by {@link #close()}). */
    public static RedisServerProcess onFreePort(Persistence persistence, String... moreArguments) {
        return onPort(ServiceProcess.freePort(), persistence, moreArguments);
    }

    /** Not started yet, on this port (the caller checked it is free) and a temporary directory. */
    public static RedisServerProcess onPort(int port, Persistence persistence, String... moreArguments) {
        try {
            Path directory = Files.createTempDirectory("flashsale-redis-" + port + "-");
            return new RedisServerProcess(port, directory.resolve("data"), directory.resolve("redis.log"), true,
                    arguments(persistence, moreArguments));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a directory for redis-server", e);
        }
    }

    /**
     * Not started yet, on this port, with its data in {@code dataDirectory} (which the caller owns and deletes; kept
     * by {@link #close()}) and its log beside it: two servers one after the other on one directory read the same data.
     */
    public static RedisServerProcess onPortIn(int port, Path dataDirectory, Persistence persistence,
                                              String... moreArguments) {
        return new RedisServerProcess(port, dataDirectory, dataDirectory.resolve("redis-" + port + ".log"), false,
                arguments(persistence, moreArguments));
    }

    /**
     * Started, on a free port, with its data in {@code workDirectory/redis-<port>} and its log beside it; both kept
     * after {@link #close()} for diagnosis.
     */
    public static RedisServerProcess startedIn(Path workDirectory, Persistence persistence) {
        int port = ServiceProcess.freePort();
        return new RedisServerProcess(port, workDirectory.resolve("redis-" + port),
                workDirectory.resolve("redis-" + port + ".log"), false, arguments(persistence)).start();
    }

    private static List<String> arguments(Persistence persistence, String... moreArguments) {
        List<String> arguments = new ArrayList<>(persistence.arguments);
        arguments.addAll(List.of(moreArguments));
        return List.copyOf(arguments);
    }

    public int port() {
        return port;
    }

    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    public Path directory() {
        return directory;
    }

    public Path log() {
        return log;
    }

    /** Starts the server unless it runs, and waits until it answers (a reply to PING, LOADING included). */
    public synchronized RedisServerProcess start() {
        if (process != null && process.isAlive()) {
            return this;
        }
        List<String> command = new ArrayList<>(List.of(RedisServerBinary.path().toString(),
                "--port", Integer.toString(port), "--bind", "127.0.0.1", "--dir", directory.toString()));
        command.addAll(arguments);
        try {
            Files.createDirectories(directory);
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            frozen = false;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command.getFirst(), e);
        }
        awaitAnswer();
        return this;
    }

    private void awaitAnswer() {
        long deadline = System.nanoTime() + START_PATIENCE.toNanos();
        while (!answers()) {
            if (!process.isAlive()) {
                throw new IllegalStateException("redis-server on port " + port + " exited with "
                        + process.exitValue() + ":\n" + tailOfLog());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("redis-server on port " + port + " did not answer within "
                        + START_PATIENCE + ":\n" + tailOfLog());
            }
            pause(Duration.ofMillis(20));
        }
    }

    private boolean answers() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            socket.setSoTimeout(1000);
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            int first = in.read();
            return first == '+' || first == '-';
        } catch (IOException notYet) {
            return false;
        }
    }

    /** SIGKILL, as in a crash, frozen or not; returns once the process is gone. A no-op when it is not running. */
    public synchronized void kill() {
        if (process == null || !process.isAlive()) {
            return;
        }
        if (frozen) {
            Signals.resume(process.pid());
        }
        process.destroyForcibly();
        try {
            if (!process.waitFor(KILL_PATIENCE.toSeconds(), TimeUnit.SECONDS)) {
                throw new IllegalStateException("redis-server " + process.pid() + " survived SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing redis-server " + process.pid(), e);
        }
        frozen = false;
    }

    /** SIGKILL, then a start on the same directory: what a crash and a supervisor's restart do. */
    public synchronized void restart() {
        kill();
        start();
    }

    /** SIGKILL and a start on an empty directory: the node came back without its data. */
    public synchronized void restartEmpty() {
        kill();
        wipe();
        start();
    }

    /** Deletes everything the server kept; only while it is not running. */
    public synchronized void wipe() {
        if (isAlive()) {
            throw new IllegalStateException("wipe a stopped redis-server only (port " + port + ")");
        }
        deleteBelow(directory, false);
    }

    /** SIGSTOP: the server holds its connections open and answers nothing. */
    public synchronized void freeze() {
        Signals.stop(process.pid());
        frozen = true;
    }

    /** The running server's process id (for a benchmark that sets its scheduling, for example). */
    public synchronized long pid() {
        if (process == null || !process.isAlive()) {
            throw new IllegalStateException("redis-server on port " + port + " is not running");
        }
        return process.pid();
    }

    /** SIGCONT. */
    public synchronized void thaw() {
        Signals.resume(process.pid());
        frozen = false;
    }

    /** SIGCONT if it is alive (a no-op for a running process). */
    public synchronized void thawQuietly() {
        if (isAlive()) {
            thaw();
        }
    }

    public synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    @Override
    public synchronized void close() {
        kill();
        if (ownsDirectory) {
            deleteBelow(directory.getParent(), true);
        }
    }

    private String tailOfLog() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no log at " + log + ")";
        }
    }

    private static void deleteBelow(Path root, boolean andRoot) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                if (andRoot || !path.equals(root)) {
                    Files.delete(path);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + root, e);
        }
    }

    private static void pause(Duration pause) {
        try {
            Thread.sleep(pause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while redis-server starts", e);
        }
    }
}
