package io.flashsale.bootstrap.kafka;

import io.flashsale.adapter.kafka.broker.EmbeddedKafkaBroker;
import io.flashsale.adapter.kafka.broker.EmbeddedKafkaSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Starts the in-process Kafka broker when no brokers are configured in demo mode, so the run command needs no set-up;
 * outside demo mode a missing {@code spring.kafka.bootstrap-servers} is a start-up error (ADR 80).
 *
 * <p>A bean factory post-processor: it runs once the environment is complete (every property source, a test's
 * dynamic properties included) and before any bean is made, so the address it adds as
 * {@code spring.kafka.bootstrap-servers} is the one every Kafka client is built with. Being made that early, it
 * is destroyed late: the broker closes after the producers and consumers that use it.
 */
public final class EmbeddedKafkaLauncher implements BeanFactoryPostProcessor, DisposableBean {

    public static final String BOOTSTRAP_SERVERS = "spring.kafka.bootstrap-servers";
    static final String PROPERTY_SOURCE_NAME = "flashsaleEmbeddedKafka";
    /** Demo mode (off by default, on in the demo profile) allows every embedded server, this broker included. */
    static final String DEMO_MODE = "flashsale.embedded.enabled";

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaLauncher.class);

    private final ConfigurableEnvironment environment;
    private volatile EmbeddedKafkaBroker broker;

    public EmbeddedKafkaLauncher(ConfigurableEnvironment environment) {
        this.environment = environment;
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
        Binder binder = Binder.get(environment);
        List<String> configured = binder.bind(BOOTSTRAP_SERVERS, Bindable.listOf(String.class)).orElse(List.of());
        if (configured.stream().anyMatch(server -> !server.isBlank())) {
            LOG.info("Kafka: using the configured brokers {}", String.join(",", configured));
            return;
        }
        EmbeddedKafkaProperties properties = binder.bindOrCreate(EmbeddedKafkaProperties.PREFIX,
                EmbeddedKafkaProperties.class);
        boolean demoMode = binder.bind(DEMO_MODE, Boolean.class).orElse(false);
        if (!demoMode) {
            throw new IllegalStateException("No Kafka brokers configured: set " + BOOTSTRAP_SERVERS
                    + " (SPRING_KAFKA_BOOTSTRAP_SERVERS). Outside demo mode no broker is started in-process; demo mode "
                    + "is the demo profile (--spring.profiles.active=demo, which sets " + DEMO_MODE + "=true).");
        }
        if (!properties.enabled()) {
            throw new IllegalStateException("No Kafka brokers configured (" + BOOTSTRAP_SERVERS
                    + " / SPRING_KAFKA_BOOTSTRAP_SERVERS) and the embedded broker is disabled ("
                    + EmbeddedKafkaProperties.PREFIX + ".enabled=false)");
        }
        Path dataDirectory = Path.of(properties.dataDir()).toAbsolutePath().normalize();
        LOG.info("Kafka: no {} configured, starting the embedded broker on port {} with its log in {}",
                BOOTSTRAP_SERVERS, properties.port() == 0 ? "(any free)" : properties.port(), dataDirectory);
        EmbeddedKafkaBroker started = EmbeddedKafkaBroker.start(
                EmbeddedKafkaSettings.inDirectory(dataDirectory).withPort(properties.port()));
        broker = started;
        environment.getPropertySources().addFirst(
                new MapPropertySource(PROPERTY_SOURCE_NAME, Map.of(BOOTSTRAP_SERVERS, started.bootstrapServers())));
        LOG.info("Kafka: using the embedded broker {} (cluster {}), data in {}", started.bootstrapServers(),
                started.clusterId(), started.dataDirectory());
    }

    /** The broker this launcher started; null when brokers were configured. */
    public EmbeddedKafkaBroker broker() {
        return broker;
    }

    @Override
    public void destroy() {
        EmbeddedKafkaBroker started = broker;
        if (started != null) {
            started.close();
        }
    }
}
