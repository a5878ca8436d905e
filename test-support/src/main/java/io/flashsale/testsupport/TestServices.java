package io.flashsale.testsupport;

import org.testcontainers.DockerClientFactory;

import java.util.Locale;

/**
 * The one place that decides where tests find their servers. {@code FLASHSALE_TEST_SERVICES}
 * chooses: {@code containers} (Testcontainers), {@code local} (this machine's services) or
 * {@code auto} (the default: containers when a Docker engine answers, local otherwise).
 * Each server is started or located once per test JVM and shared. Kafka: see {@link #kafka()}.
 */
public final class TestServices {

    private static volatile Boolean containers;

    private TestServices() {
    }

    public static RedisEndpoint redis() {
        return useContainers() ? ContainerServices.redis() : LocalServices.redis();
    }

    /**
     * A 3-master Redis Cluster: the one named by {@code FLASHSALE_TEST_REDIS_CLUSTER_NODES} ({@code host:port,...})
     * when set, otherwise one started from this machine's {@code redis-server} on first use.
     */
    public static RedisClusterEndpoint redisCluster() {
        String configured = Env.get("FLASHSALE_TEST_REDIS_CLUSTER_NODES", "");
        return configured.isBlank() ? LocalRedisCluster.get()
                : new RedisClusterEndpoint(java.util.Arrays.stream(configured.split(",")).map(String::strip).toList());
    }

    public static MariaDbEndpoint mariadb() {
        return useContainers() ? ContainerServices.mariadb() : LocalServices.mariadb();
    }

    /**
     * Kafka: the cluster named by {@code FLASHSALE_TEST_KAFKA_BOOTSTRAP_SERVERS} when set; otherwise a container,
     * or, without Docker, one in-JVM KRaft broker (spring-kafka-test) started on first use.
     */
    public static KafkaEndpoint kafka() {
        return KafkaServices.external()
                .orElseGet(() -> useContainers() ? KafkaServices.container() : KafkaServices.embedded());
    }

    public static boolean useContainers() {
        Boolean decided = containers;
        if (decided == null) {
            decided = decide(Env.get("FLASHSALE_TEST_SERVICES", "auto").toLowerCase(Locale.ROOT));
            containers = decided;
            System.out.println("[flashsale-tests] services: " + (decided ? "Testcontainers" : "local servers"));
        }
        return decided;
    }

    private static boolean decide(String choice) {
        return switch (choice) {
            case "containers" -> true;
            case "local" -> false;
            case "auto" -> DockerClientFactory.instance().isDockerAvailable();
            default -> throw new IllegalStateException(
                    "FLASHSALE_TEST_SERVICES must be auto, containers or local, was " + choice);
        };
    }
}
