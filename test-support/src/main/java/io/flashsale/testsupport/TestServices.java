package io.flashsale.testsupport;

import io.flashsale.embedded.ServerAddress;
import org.testcontainers.DockerClientFactory;

import java.time.Duration;
import java.util.Locale;

/**
 * The one place that decides where tests find their servers. {@code FLASHSALE_TEST_SERVICES} chooses:
 * {@code containers} (Testcontainers), {@code local} (this machine's services), {@code embedded} (Redis and MariaDB
 * from Maven-packaged binaries, in-process, as the run command's demo mode) or {@code auto} (the default: containers
 * when a Docker engine answers, else local when the local Redis and database answer, else embedded).
 * Each server is started or located once per test JVM and shared. Kafka: see {@link #kafka()}.
 */
public final class TestServices {

    /** Where the servers come from. */
    public enum Source { CONTAINERS, LOCAL, EMBEDDED }

    private static final Duration PROBE_TIMEOUT = Duration.ofMillis(500);

    private static volatile Source source;

    private TestServices() {
    }

    public static RedisEndpoint redis() {
        return switch (source()) {
            case CONTAINERS -> ContainerServices.redis();
            case LOCAL -> LocalServices.redis();
            case EMBEDDED -> EmbeddedServices.redis();
        };
    }

    /**
     * A 3-master Redis Cluster: the one named by {@code FLASHSALE_TEST_REDIS_CLUSTER_NODES} ({@code host:port,...})
     * when set, otherwise one of {@link RedisServerProcess}es (the PATH's {@code redis-server}, else the packaged one)
     * started and formed through Lettuce on first use.
     */
    public static RedisClusterEndpoint redisCluster() {
        String configured = Env.get("FLASHSALE_TEST_REDIS_CLUSTER_NODES", "");
        return configured.isBlank() ? LocalRedisCluster.get()
                : new RedisClusterEndpoint(java.util.Arrays.stream(configured.split(",")).map(String::strip).toList());
    }

    public static MariaDbEndpoint mariadb() {
        return switch (source()) {
            case CONTAINERS -> ContainerServices.mariadb();
            case LOCAL -> LocalServices.mariadb();
            case EMBEDDED -> EmbeddedServices.mariadb();
        };
    }

    /**
     * Kafka: the cluster named by {@code FLASHSALE_TEST_KAFKA_BOOTSTRAP_SERVERS} when set; otherwise a container,
     * or, without Docker, one in-JVM KRaft broker (spring-kafka-test) started on first use.
     */
    public static KafkaEndpoint kafka() {
        return KafkaServices.external()
                .orElseGet(() -> source() == Source.CONTAINERS ? KafkaServices.container() : KafkaServices.embedded());
    }

    public static boolean useContainers() {
        return source() == Source.CONTAINERS;
    }

    public static Source source() {
        Source decided = source;
        if (decided == null) {
            synchronized (TestServices.class) {
                decided = source;
                if (decided == null) {
                    decided = decide(Env.get("FLASHSALE_TEST_SERVICES", "auto").toLowerCase(Locale.ROOT));
                    source = decided;
                    System.out.println("[flashsale-tests] services: " + switch (decided) {
                        case CONTAINERS -> "Testcontainers";
                        case LOCAL -> "local servers";
                        case EMBEDDED -> "embedded servers (Redis and MariaDB from Maven artifacts)";
                    });
                }
            }
        }
        return decided;
    }

    private static Source decide(String choice) {
        return switch (choice) {
            case "containers" -> Source.CONTAINERS;
            case "local" -> Source.LOCAL;
            case "embedded" -> Source.EMBEDDED;
            case "auto" -> DockerClientFactory.instance().isDockerAvailable() ? Source.CONTAINERS
                    : localServersAnswer() ? Source.LOCAL : Source.EMBEDDED;
            default -> throw new IllegalStateException(
                    "FLASHSALE_TEST_SERVICES must be auto, containers, local or embedded, was " + choice);
        };
    }

    private static boolean localServersAnswer() {
        RedisEndpoint redis = LocalServices.redis();
        MariaDbEndpoint mariadb = LocalServices.mariadb();
        return new ServerAddress(redis.host(), redis.port()).answers(PROBE_TIMEOUT)
                && new ServerAddress(mariadb.host(), mariadb.port()).answers(PROBE_TIMEOUT);
    }
}
