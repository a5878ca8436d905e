package io.flashsale.bootstrap.config;

import io.flashsale.adapter.redis.RedisHotStore;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;
import java.util.List;

/**
 * Spring Boot's standard Redis properties (env {@code SPRING_DATA_REDIS_HOST}, ...), bound here because
 * the service talks to Redis through its own adapter, without Spring Data Redis.
 *
 * @param timeout how long one command may take before the caller gets an error
 * @param cluster {@code spring.data.redis.cluster.nodes}: {@code host:port} seeds of a Redis Cluster; when set, host,
 *                port and database are not used
 */
@ConfigurationProperties("spring.data.redis")
public record RedisConnectionProperties(@DefaultValue("127.0.0.1") String host,
                                        @DefaultValue("6379") int port,
                                        String password,
                                        @DefaultValue("0") int database,
                                        @DefaultValue("2s") Duration timeout,
                                        @DefaultValue Cluster cluster) {

    /** @param nodes empty: a standalone Redis */
    public record Cluster(List<String> nodes) {

        public Cluster {
            nodes = nodes == null ? List.of() : List.copyOf(nodes);
        }
    }

    RedisHotStore.Settings toSettings() {
        return new RedisHotStore.Settings(host, port, password, database, timeout, cluster.nodes());
    }

    @Override
    public String toString() {
        return "RedisConnectionProperties[host=" + host + ", port=" + port + ", password="
                + (password == null || password.isEmpty() ? "<none>" : "****") + ", database=" + database
                + ", timeout=" + timeout + ", cluster.nodes=" + cluster.nodes() + "]";
    }
}
