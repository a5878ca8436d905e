package io.flashsale.acceptance;

import io.flashsale.acceptance.inspect.HotStore;
import io.flashsale.acceptance.inspect.ReservationsTopic;
import io.flashsale.acceptance.inspect.ShopDatabase;
import io.flashsale.acceptance.time.ScenarioClock;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

/**
 * Read-outs behind the HTTP surface, pointed at the very servers the service under test uses; closed with the
 * context. And the one thing the scenarios hand the service: its clock, which they may move forward.
 */
@Configuration(proxyBeanMethods = false)
public class InspectionConfiguration {

    /** The service's clock (it takes the primary one): real time, moved forward by the time steps. */
    @Bean
    @Primary
    ScenarioClock scenarioClock() {
        return new ScenarioClock();
    }

    @Bean
    ShopDatabase inspectedShopDatabase(@Value("${spring.datasource.url}") String url,
                              @Value("${spring.datasource.username}") String username,
                              @Value("${spring.datasource.password}") String password) {
        return new ShopDatabase(url, username, password);
    }

    @Bean
    HotStore inspectedHotStore(@Value("${spring.data.redis.host}") String host,
                               @Value("${spring.data.redis.port}") int port) {
        return new HotStore("redis://" + host + ":" + port);
    }

    @Bean
    ReservationsTopic inspectedReservationsTopic(@Value("${spring.kafka.bootstrap-servers}") String bootstrapServers) {
        return new ReservationsTopic(bootstrapServers, CucumberSpringConfiguration.TOPIC,
                CucumberSpringConfiguration.CONSUMER_GROUP);
    }
}
