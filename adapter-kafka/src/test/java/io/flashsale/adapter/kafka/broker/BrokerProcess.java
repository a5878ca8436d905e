package io.flashsale.adapter.kafka.broker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** {@link EmbeddedKafkaBroker#main} in a JVM of its own, started by a test so that the test can kill it. */
final class BrokerProcess implements AutoCloseable {

    private final Process process;
    private final String bootstrapServers;

    private BrokerProcess(Process process, String bootstrapServers) {
        this.process = process;
        this.bootstrapServers = bootstrapServers;
    }

    static BrokerProcess start(Path dataDirectory, Path output, Duration readyWithin) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElseThrow(), "-Xmx512m", "-XX:TieredStopAtLevel=1"));
        if (Runtime.version().feature() >= 23) {
            // Kafka still frees mapped index buffers through sun.misc.Unsafe; newer JDKs warn about it on stderr.
            command.add("--sun-misc-unsafe-memory-access=allow");
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"),
                EmbeddedKafkaBroker.class.getName(), dataDirectory.toString(), "0"));
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        long deadline = System.nanoTime() + readyWithin.toNanos();
        while (System.nanoTime() < deadline && process.isAlive()) {
            Optional<String> bootstrap = readyAddress(output);
            if (bootstrap.isPresent()) {
                return new BrokerProcess(process, bootstrap.get());
            }
            Thread.sleep(50);
        }
        process.destroyForcibly().waitFor();
        throw new IllegalStateException("the broker process did not get ready; its output:\n"
                + Files.readString(output, StandardCharsets.UTF_8));
    }

    String bootstrapServers() {
        return bootstrapServers;
    }

    /** SIGKILL: no shutdown hook, no flush, no clean-shutdown marker. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }

    private static Optional<String> readyAddress(Path output) throws IOException {
        List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
        return lines.stream()
                .filter(line -> line.startsWith(EmbeddedKafkaBroker.READY_LINE_PREFIX))
                .map(line -> line.substring(EmbeddedKafkaBroker.READY_LINE_PREFIX.length()).trim())
                .findFirst();
    }
}
