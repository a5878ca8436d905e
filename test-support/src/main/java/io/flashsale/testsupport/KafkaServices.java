package io.flashsale.testsupport;

import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

import java.util.Map;
import java.util.Optional;

/**
 * Kafka for tests: an external cluster named by {@value #EXTERNAL_BOOTSTRAP_SERVERS}, else one container or one
 * in-JVM KRaft broker per test JVM, started on first use. Topic auto-creation is off everywhere, as on the
 * service's own embedded broker: whoever needs a topic creates it.
 */
final class KafkaServices {

    static final String EXTERNAL_BOOTSTRAP_SERVERS = "FLASHSALE_TEST_KAFKA_BOOTSTRAP_SERVERS";

    /** The JVM-wide system property that the in-JVM broker sets to its address. */
    static final String BROKER_LIST_PROPERTY = "flashsale.test.kafka.bootstrap-servers";

    /** The broker version that the Spring Boot BOM's kafka-clients speaks natively. */
    private static final String KAFKA_IMAGE = "apache/kafka:4.1.2";

    private static final Map<String, String> SINGLE_NODE_PROPERTIES = Map.of(
            "auto.create.topics.enable", "false",
            "group.initial.rebalance.delay.ms", "0",
            "offsets.topic.replication.factor", "1",
            "transaction.state.log.replication.factor", "1",
            "transaction.state.log.min.isr", "1",
            "min.insync.replicas", "1");

    private static KafkaContainer container;
    private static EmbeddedKafkaKraftBroker embedded;

    private KafkaServices() {
    }

    static Optional<KafkaEndpoint> external() {
        String bootstrapServers = Env.get(EXTERNAL_BOOTSTRAP_SERVERS, "");
        return bootstrapServers.isBlank() ? Optional.empty() : Optional.of(new KafkaEndpoint(bootstrapServers.trim()));
    }

    static synchronized KafkaEndpoint container() {
        if (container == null) {
            container = new KafkaContainer(DockerImageName.parse(KAFKA_IMAGE))
                    .withEnv("KAFKA_AUTO_CREATE_TOPICS_ENABLE", "false")
                    .withEnv("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0");
            container.start();
        }
        return new KafkaEndpoint(container.getBootstrapServers());
    }

    static synchronized KafkaEndpoint embedded() {
        if (embedded == null) {
            EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 3);
            broker.brokerProperties(SINGLE_NODE_PROPERTIES);
            // By default it sets spring.kafka.bootstrap-servers JVM-wide, under every later Spring context.
            broker.brokerListProperty(BROKER_LIST_PROPERTY);
            broker.afterPropertiesSet();
            // Stops the broker and deletes its temporary log directories when the test JVM ends.
            Runtime.getRuntime().addShutdownHook(new Thread(broker::destroy, "flashsale-test-kafka-shutdown"));
            embedded = broker;
        }
        return new KafkaEndpoint(embedded.getBrokersAsString());
    }
}
