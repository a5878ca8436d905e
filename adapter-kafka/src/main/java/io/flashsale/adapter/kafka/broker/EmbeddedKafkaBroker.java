package io.flashsale.adapter.kafka.broker;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A real single-node Kafka broker in KRaft combined mode (broker and controller in one process), run inside
 * this JVM from the Kafka server jars. Its log lives in a stable data directory, formatted on the first start
 * only, so a restart on the same directory serves every record the broker had acknowledged before.
 *
 * <p>What survives: records acknowledged with {@code acks=all} are in the broker's segment files (the OS page
 * cache) before the acknowledgement is sent, so they survive a clean {@link #close()}, a crash of the broker
 * process and a SIGKILL; on the next start Kafka recovers the unflushed segment tails and keeps every complete
 * batch. They are not fsynced per record by default, so an OS crash or power loss may lose the last unflushed
 * records; set the broker property {@code log.flush.interval.messages=1} to fsync before each acknowledgement,
 * at a large cost in throughput.
 *
 * <p>After a crash the restarted broker serves clients once the dead incarnation's session has expired
 * ({@code broker.session.timeout.ms}, 3 s here). One broker per data directory: a second start on a directory
 * in use, from this JVM or another process, is refused before it touches the log.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

    /** The line {@link #main} prints on standard output once the broker accepts clients. */
    public static final String READY_LINE_PREFIX = "flashsale-kafka-broker ready: bootstrap.servers=";

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);

    private final KafkaRaftServer server;
    private final DataDirectoryLock lock;
    private final String bootstrapServers;
    private final String clusterId;
    private final Path dataDirectory;
    private final AtomicBoolean closed = new AtomicBoolean();

    private EmbeddedKafkaBroker(
            KafkaRaftServer server, DataDirectoryLock lock, String bootstrapServers, String clusterId, Path dataDirectory) {
        this.server = server;
        this.lock = lock;
        this.bootstrapServers = bootstrapServers;
        this.clusterId = clusterId;
        this.dataDirectory = dataDirectory;
    }

    /**
     * Formats the data directory if it is new, starts the broker and returns once it accepts clients.
     * Refused while another broker (in this JVM or another process) uses the directory.
     */
    public static EmbeddedKafkaBroker start(EmbeddedKafkaSettings settings) {
        long startedAt = System.nanoTime();
        DataDirectoryLock lock = DataDirectoryLock.acquire(settings.dataDirectory());
        try {
            EmbeddedKafkaBroker broker = startLocked(settings, lock);
            LOG.info("Embedded Kafka broker of cluster {} started in {} ms on {}, data in {}", broker.clusterId,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedAt), broker.bootstrapServers,
                    settings.dataDirectory());
            return broker;
        } catch (RuntimeException e) {
            lock.close();
            throw e;
        }
    }

    private static EmbeddedKafkaBroker startLocked(EmbeddedKafkaSettings settings, DataDirectoryLock lock) {
        int port = settings.port() != 0 ? settings.port() : freePortOtherThan(settings.controllerPort(), settings.host());
        int controllerPort = settings.controllerPort() != 0 ? settings.controllerPort() : freePortOtherThan(port, settings.host());
        String clusterId = BrokerStorage.formatOnce(settings.dataDirectory());
        KafkaConfig config = new KafkaConfig(BrokerProperties.of(settings, port, controllerPort), false);
        KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
        try {
            server.startup();
        } catch (RuntimeException e) {
            // A half-started server still holds Kafka's directory lock and its threads.
            shutDown(server);
            throw new IllegalStateException("the embedded Kafka broker did not start on " + settings.host() + ":" + port
                    + " (controller port " + controllerPort + ") with data in " + settings.dataDirectory(), e);
        }
        return new EmbeddedKafkaBroker(server, lock, settings.host() + ":" + port, clusterId, settings.dataDirectory());
    }

    /** host:port of the client listener, for {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** The id written into the data directory on its first start; the same after every restart. */
    public String clusterId() {
        return clusterId;
    }

    public Path dataDirectory() {
        return dataDirectory;
    }

    /** Shuts the broker down cleanly (flushes and checkpoints its log); later calls do nothing. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            long stoppingAt = System.nanoTime();
            shutDown(server);
            lock.close();
            LOG.info("Embedded Kafka broker on {} stopped in {} ms", bootstrapServers,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stoppingAt));
        }
    }

    /**
     * Runs a broker as a process of its own, until the process is stopped (SIGTERM closes it cleanly).
     * Arguments: data directory, client port (0 or absent: a free one), controller port (0 or absent: a free one).
     */
    public static void main(String[] args) {
        if (args.length < 1 || args.length > 3) {
            System.err.println("usage: EmbeddedKafkaBroker <data-directory> [port] [controller-port]");
            System.exit(2);
        }
        EmbeddedKafkaSettings settings = EmbeddedKafkaSettings.inDirectory(Path.of(args[0]))
                .withPort(args.length > 1 ? Integer.parseInt(args[1]) : 0)
                .withControllerPort(args.length > 2 ? Integer.parseInt(args[2]) : 0);
        EmbeddedKafkaBroker broker = start(settings);
        Runtime.getRuntime().addShutdownHook(new Thread(broker::close, "embedded-kafka-shutdown"));
        System.out.println(READY_LINE_PREFIX + broker.bootstrapServers());
        System.out.flush();
        broker.server.awaitShutdown();
    }

    private static int freePortOtherThan(int taken, String host) {
        int port = FreePort.on(host);
        while (port == taken) {
            port = FreePort.on(host);
        }
        return port;
    }

    private static void shutDown(KafkaRaftServer server) {
        server.shutdown();
        server.awaitShutdown();
    }
}
