package io.flashsale.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real service, as its users run it: the runnable jar in a JVM of its own, a child of the test. The test owns
 * the process, so it can kill it the hard way ({@link #kill()}, SIGKILL) and start it again on the same settings.
 * Everything the child prints goes to one log file per start, for diagnosis.
 */
public final class ServiceProcess implements AutoCloseable {

    private static final Duration READY_POLL = Duration.ofMillis(250);
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();

    private final Process process;
    private final int port;
    private final int managementPort;
    private final Path log;

    private ServiceProcess(Process process, int port, int managementPort, Path log) {
        this.process = process;
        this.port = port;
        this.managementPort = managementPort;
        this.log = log;
    }

    /**
     * The jar bootstrap's build leaves at {@code bootstrap/target/flashsale.jar}, found from this module's base
     * directory (failsafe and surefire set {@code basedir}); {@code -Dflashsale.jar=...} names another.
     */
    public static Path runnableJar() {
        String named = System.getProperty("flashsale.jar");
        if (named != null && !named.isBlank()) {
            return Path.of(named).toAbsolutePath();
        }
        Path moduleDirectory = Path.of(System.getProperty("basedir", System.getProperty("user.dir")));
        return moduleDirectory.resolve("../bootstrap/target/flashsale.jar").toAbsolutePath().normalize();
    }

    /** The java launcher of the JVM running this code: the child runs on the same JDK as the test. */
    public static String javaLauncher() {
        return ProcessHandle.current().info().command()
                .orElseThrow(() -> new IllegalStateException("cannot tell which java binary runs this JVM"));
    }

    /** A port for a server the test starts later: see {@link FreePorts}. */
    public static int freePort() {
        return FreePorts.next();
    }

    /**
     * Starts the jar with these JVM options and Spring properties (passed as {@code --name=value}), and returns at
     * once; {@link #awaitReady} waits for it to serve.
     *
     * @param properties must include {@code server.port}; without {@code management.server.port} the actuator gets a
     *                   free port of its own
     */
    public static ServiceProcess start(Path jar, List<String> jvmOptions, Map<String, String> given, Path log) {
        String portValue = given.get("server.port");
        if (portValue == null) {
            throw new IllegalArgumentException("server.port must be given: the test has to know where to knock");
        }
        Map<String, String> properties = new LinkedHashMap<>(given);
        properties.computeIfAbsent("management.server.port", name -> Integer.toString(freePort()));
        List<String> command = new ArrayList<>();
        command.add(javaLauncher());
        command.addAll(jvmOptions);
        command.add("-jar");
        command.add(jar.toString());
        properties.forEach((name, value) -> command.add("--" + name + "=" + value));
        try {
            Files.createDirectories(log.getParent());
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            return new ServiceProcess(process, Integer.parseInt(portValue),
                    Integer.parseInt(properties.get("management.server.port")), log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + jar, e);
        }
    }

    /** Waits until the service answers its readiness probe with 200; fails at once if the process died instead. */
    public ServiceProcess awaitReady(Duration patience) {
        long deadline = System.nanoTime() + patience.toNanos();
        HttpRequest health = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + managementPort + "/actuator/health/readiness"))
                .timeout(Duration.ofSeconds(2)).GET().build();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the service exited with " + process.exitValue()
                        + " before it was ready; the end of " + log + ":\n" + tailOfLog());
            }
            try {
                if (HTTP.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return this;
                }
            } catch (IOException notListeningYet) {
                // Keep knocking until the deadline.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the service", e);
            }
            sleep(READY_POLL);
        }
        throw new IllegalStateException("the service was not ready within " + patience + "; the end of " + log
                + ":\n" + tailOfLog());
    }

    /** SIGKILL: no shutdown hook, no graceful shutdown, no flush; returns once the process is gone. */
    public void kill() {
        process.destroyForcibly();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the service process " + process.pid() + " survived SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing the service", e);
        }
    }

    /** SIGTERM: the service shuts down gracefully (and stops what it started); returns once the process is gone. */
    public void stop(Duration patience) {
        process.destroy();
        try {
            if (!process.waitFor(patience.toMillis(), TimeUnit.MILLISECONDS)) {
                kill();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping the service", e);
        }
    }

    /** The actuator's port (readiness and liveness open, the rest behind the admin token). */
    public int managementPort() {
        return managementPort;
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    public Path log() {
        return log;
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            kill();
        }
    }

    private String tailOfLog() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    private static void sleep(Duration pause) {
        try {
            Thread.sleep(pause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
