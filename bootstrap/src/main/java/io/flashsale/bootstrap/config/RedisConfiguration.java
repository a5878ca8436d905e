package io.flashsale.bootstrap.config;

import io.flashsale.adapter.redis.RedisActivityArchive;
import io.flashsale.adapter.redis.RedisHotStoreReconciliation;
import io.flashsale.adapter.redis.RedisReservationOutbox;
import io.flashsale.adapter.redis.RedisStockReservationAdapter;
import io.flashsale.application.port.out.HotStoreArchivePort;
import io.flashsale.application.port.out.HotStoreReconciliationPort;
import io.flashsale.application.port.out.ReservationOutboxPort;
import io.flashsale.application.port.out.StockReservationPort;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * One Lettuce client and one shared, thread-safe connection: Lettuce pipelines concurrent callers on it.
 * Nothing on it may block (no XREADGROUP BLOCK, no BLPOP): every caller would wait behind it.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({RedisConnectionProperties.class, OutboxRegistryProperties.class})
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
    StockReservationPort stockReservationPort(StatefulRedisConnection<String, String> connection,
                                              OutboxRegistryProperties registry) {
        return new RedisStockReservationAdapter(connection, registry.outboxRegistry());
    }

    @Bean
    ReservationOutboxPort reservationOutboxPort(StatefulRedisConnection<String, String> connection,
                                                OutboxRegistryProperties registry) {
        return new RedisReservationOutbox(connection, registry.outboxRegistry());
    }

    /** The same registry as the stock adapter's: archiving takes the activity out of the set its warm-up put it in. */
    @Bean
    HotStoreArchivePort hotStoreArchivePort(StatefulRedisConnection<String, String> connection,
                                            OutboxRegistryProperties registry) {
        return new RedisActivityArchive(connection, registry.outboxRegistry());
    }

    /** The same registry again: a rebuilt sale's outbox must be relayed like a warmed-up one's. */
    @Bean
    HotStoreReconciliationPort hotStoreReconciliationPort(StatefulRedisConnection<String, String> connection,
                                                          OutboxRegistryProperties registry) {
        return new RedisHotStoreReconciliation(connection, registry.outboxRegistry());
    }
}
