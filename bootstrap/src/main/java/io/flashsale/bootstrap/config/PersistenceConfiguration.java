package io.flashsale.bootstrap.config;

import io.flashsale.adapter.mysql.MysqlAdapterConfiguration;
import io.flashsale.adapter.mysql.replica.ReplicaSettings;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The database of record; DataSource, MyBatis and Flyway come from Boot's auto-configuration. A read-only replica,
 * when {@code flashsale.datasource.replica.url} names one, serves the reads the MySQL adapter routes to it (ADR 86).
 */
@Configuration(proxyBeanMethods = false)
@Import(MysqlAdapterConfiguration.class)
@EnableConfigurationProperties(ReplicaProperties.class)
public class PersistenceConfiguration {

    @Bean
    @ConditionalOnExpression("!'${flashsale.datasource.replica.url:}'.isBlank()")
    ReplicaSettings replicaSettings(ReplicaProperties replica) {
        return replica.toSettings().orElseThrow();
    }
}
