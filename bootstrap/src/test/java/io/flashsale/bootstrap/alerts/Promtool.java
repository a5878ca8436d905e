package io.flashsale.bootstrap.alerts;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Prometheus's {@code promtool} (Debian's {@code prometheus} package, which {@code .ci/run} installs), run on the
 * alert rules. In CI ({@code CI=true}) a missing promtool fails the test; elsewhere the test is skipped with the
 * reason, so a build with only a JDK still passes.
 */
public final class Promtool {

    /** docs/ops, where the rules and their unit tests live. */
    public static final Path OPS_DOCS = Path.of(System.getProperty("basedir", ".")).resolve("../docs/ops")
            .toAbsolutePath().normalize();
    public static final Path RULES = OPS_DOCS.resolve("alerts.yml");
    public static final Path RULE_TESTS = OPS_DOCS.resolve("alerts-test.yml");

    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    private final Path executable;

    private Promtool(Path executable) {
        this.executable = executable;
    }

    /** The promtool on the PATH; fails in CI and skips elsewhere when there is none. */
    public static Promtool requiredInCiElseSkip(String test) {
        Optional<Path> found = onPath();
        if (found.isEmpty() && "true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new AssertionError("CI=true requires " + test + ", but there is no promtool on the PATH: install "
                    + "Debian's prometheus package (.ci/run does)");
        }
        if (found.isEmpty()) {
            String reason = test + " skipped: no promtool on the PATH (Debian's prometheus package); outside CI only";
            System.out.println("[flashsale-tests] " + reason);
            assumeTrue(false, reason);
        }
        return new Promtool(found.orElseThrow());
    }

    private static Optional<Path> onPath() {
        String path = System.getenv().getOrDefault("PATH", "");
        List<String> directories = new ArrayList<>(List.of(path.split(File.pathSeparator)));
        directories.add("/usr/bin");
        return directories.stream().filter(directory -> !directory.isBlank())
                .map(directory -> Path.of(directory, "promtool")).filter(Files::isExecutable).findFirst();
    }

    /** Runs {@code promtool args...} in {@code directory}; killed after two minutes. */
    public Result run(Path directory, String... args) {
        List<String> command = new ArrayList<>();
        command.add(executable.toString());
        command.addAll(List.of(args));
        try {
            Path output = Files.createTempFile("promtool", ".out");
            try {
                Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                        .redirectOutput(output.toFile()).start();
                if (!process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                    throw new AssertionError(String.join(" ", command) + " did not finish within " + TIMEOUT);
                }
                return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(output);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public record Result(int exitCode, String output) {
    }
}
