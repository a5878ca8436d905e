package io.flashsale.bootstrap.config;

import io.flashsale.adapter.mysql.replica.ReplicaSettings;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The database's read-only replica, only when {@code flashsale.datasource.replica.url} names one; without it the MySQL
 * adapter reads everything from the primary (ADR 86).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ReplicaProperties.class)
public class ReplicaConfiguration {

    @Bean
    @ConditionalOnExpression("!'${flashsale.datasource.replica.url:}'.isBlank()")
    ReplicaSettings replicaSettings(ReplicaProperties replica) {
        return replica.toSettings().orElseThrow();
    }
}
