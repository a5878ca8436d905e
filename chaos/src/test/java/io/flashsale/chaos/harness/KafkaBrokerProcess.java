package io.flashsale.chaos.harness;

import io.flashsale.testsupport.ServiceProcess;
import org.apache.kafka.common.Uuid;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A real single-node KRaft Kafka (broker and controller in one process) in a JVM of its own, from the Kafka jars on
 * this test's classpath: {@code kafka.tools.StorageTool format}, then {@code kafka.Kafka server.properties}, as
 * Kafka's documentation starts one. A child JVM, so the harness can SIGKILL or SIGSTOP it; a restart keeps its log
 * directory (the broker recovers its logs as after a crash).
 */
public final class KafkaBrokerProcess implements AutoCloseable {

    private static final Duration START_PATIENCE = Duration.ofSeconds(60);

    private final int port = ServiceProcess.freePort();
    private final int controllerPort = ServiceProcess.freePort();
    private final Path config;
    private final Path log;
    private ChildProcess process;

    public KafkaBrokerProcess(Path workDirectory) {
        Path directory = workDirectory.resolve("kafka-" + port);
        this.config = directory.resolve("server.properties");
        this.log = workDirectory.resolve("kafka-" + port + ".log");
        try {
            Files.createDirectories(directory);
            Files.writeString(config, """
                    process.roles=broker,controller
                    node.id=1
                    controller.quorum.voters=1@127.0.0.1:%2$d
                    listeners=PLAINTEXT://127.0.0.1:%1$d,CONTROLLER://127.0.0.1:%2$d
                    advertised.listeners=PLAINTEXT://127.0.0.1:%1$d
                    controller.listener.names=CONTROLLER
                    inter.broker.listener.name=PLAINTEXT
                    listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
                    log.dirs=%3$s
                    num.partitions=1
                    auto.create.topics.enable=false
                    offsets.topic.replication.factor=1
                    offsets.topic.num.partitions=3
                    transaction.state.log.replication.factor=1
                    transaction.state.log.min.isr=1
                    group.initial.rebalance.delay.ms=0
                    log.flush.interval.messages=1
                    """.formatted(port, controllerPort, directory.resolve("logs")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        format();
        start();
    }

    private void format() {
        ChildProcess formatting = ChildProcess.start(javaCommand("kafka.tools.StorageTool", "format", "-t",
                Uuid.randomUuid().toString(), "-c", config.toString()), log);
        long deadline = System.nanoTime() + START_PATIENCE.toNanos();
        while (formatting.isAlive() && System.nanoTime() < deadline) {
            ChildProcess.sleep(Duration.ofMillis(100));
        }
        if (formatting.isAlive()) {
            formatting.kill();
            throw new IllegalStateException("formatting the broker's storage took too long; see " + log);
        }
    }

    private void start() {
        process = ChildProcess.start(javaCommand("kafka.Kafka", config.toString()), log)
                .awaitListening(port, START_PATIENCE, log);
    }

    private static List<String> javaCommand(String mainClass, String... arguments) {
        List<String> command = new ArrayList<>(List.of(ServiceProcess.javaLauncher(), "-Xms128m", "-Xmx384m",
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                mainClass));
        command.addAll(List.of(arguments));
        return command;
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    /** SIGKILL, then a start on the same logs. */
    public void restart() {
        process.killEvenIfFrozen();
        start();
    }

    public void kill() {
        process.killEvenIfFrozen();
    }

    public void startAgain() {
        if (!process.isAlive()) {
            start();
        }
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
