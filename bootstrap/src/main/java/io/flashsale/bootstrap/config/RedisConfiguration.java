package io.flashsale.bootstrap.config;

import io.flashsale.adapter.redis.RedisStockReservationAdapter;
import io.flashsale.application.port.out.StockReservationPort;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** One Lettuce client and one shared, thread-safe connection: Lettuce pipelines concurrent callers on it. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RedisConnectionProperties.class)
public class RedisConfiguration {

    @Bean(destroyMethod = "shutdown")
    RedisClient redisClient(RedisConnectionProperties properties) {
        return RedisClient.create(properties.toUri());
    }

    @Bean(destroyMethod = "close")
    StatefulRedisConnection<String, String> redisConnection(RedisClient client) {
        return client.connect();
    }

    @Bean
    StockReservationPort stockReservationPort(StatefulRedisConnection<String, String> connection) {
        return new RedisStockReservationAdapter(connection);
    }
}
