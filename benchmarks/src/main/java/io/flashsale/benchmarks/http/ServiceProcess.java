package io.flashsale.benchmarks.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The service's packaged jar in a JVM of its own, a child of the benchmark, its output in a log file. */
final class ServiceProcess implements AutoCloseable {

    private final Process process;
    private final Path log;

    private ServiceProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    static ServiceProcess start(Path jar, List<String> jvmOptions, Map<String, String> properties, Path log) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: build it first (./mvnw -DskipTests package)");
        }
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(jvmOptions);
        command.add("-jar");
        command.add(jar.toString());
        properties.forEach((name, value) -> command.add("--" + name + "=" + value));
        try {
            Files.createDirectories(log.getParent());
            return new ServiceProcess(new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start(), log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + jar, e);
        }
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        }
    }

    /** Polls the health endpoint until it answers 200; fails early when the process died. */
    void awaitHealthy(HttpClient http, URI health, Duration patience) {
        long deadline = System.nanoTime() + patience.toNanos();
        HttpRequest request = HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(2)).GET().build();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the service exited with " + process.exitValue() + "; see " + log);
            }
            try {
                if (http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // Not listening yet.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the service started", e);
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the service started", e);
            }
        }
        throw new IllegalStateException("the service was not healthy within " + patience + "; see " + log);
    }

    /** SIGKILL: the service and everything it wrote are thrown away afterwards, so there is nothing to wait for. */
    @Override
    public void close() {
        try {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
