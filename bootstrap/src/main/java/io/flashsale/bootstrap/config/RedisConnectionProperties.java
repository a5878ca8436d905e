package io.flashsale.bootstrap.config;

import io.flashsale.adapter.redis.RedisHotStore;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * Spring Boot's standard Redis properties (env {@code SPRING_DATA_REDIS_HOST}, ...), bound here because
 * the service talks to Redis through its own adapter, without Spring Data Redis.
 *
 * @param timeout how long one command may take before the caller gets an error
 */
@ConfigurationProperties("spring.data.redis")
public record RedisConnectionProperties(@DefaultValue("127.0.0.1") String host,
                                        @DefaultValue("6379") int port,
                                        String password,
                                        @DefaultValue("0") int database,
                                        @DefaultValue("2s") Duration timeout) {

    RedisHotStore.Settings toSettings() {
        return new RedisHotStore.Settings(host, port, password, database, timeout);
    }

    @Override
    public String toString() {
        return "RedisConnectionProperties[host=" + host + ", port=" + port + ", password="
                + (password == null || password.isEmpty() ? "<none>" : "****") + ", database=" + database
                + ", timeout=" + timeout + "]";
    }
}
