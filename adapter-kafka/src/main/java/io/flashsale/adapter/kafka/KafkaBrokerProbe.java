package io.flashsale.adapter.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Asks the cluster how many brokers it has: what a health check needs, without handing Kafka's client types to the
 * caller. One admin client, made on first use and closed with the probe.
 */
public final class KafkaBrokerProbe implements AutoCloseable {

    private final String bootstrapServers;
    private volatile Admin admin;

    public KafkaBrokerProbe(String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
    }

    /** @throws IllegalStateException when the cluster does not answer within the timeout */
    public int brokers(Duration timeout) {
        int millis = (int) Math.max(1, timeout.toMillis());
        try {
            return admin().describeCluster(new DescribeClusterOptions().timeoutMs(millis)).nodes()
                    .get(millis, TimeUnit.MILLISECONDS).size();
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Kafka at " + bootstrapServers + " did not describe its cluster in "
                    + timeout, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking Kafka for its brokers", e);
        }
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    private Admin admin() {
        Admin current = admin;
        if (current == null) {
            synchronized (this) {
                current = admin;
                if (current == null) {
                    current = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                            AdminClientConfig.CLIENT_ID_CONFIG, "flashsale-health"));
                    admin = current;
                }
            }
        }
        return current;
    }

    @Override
    public void close() {
        Admin current = admin;
        if (current != null) {
            current.close(Duration.ofSeconds(5));
        }
    }
}
