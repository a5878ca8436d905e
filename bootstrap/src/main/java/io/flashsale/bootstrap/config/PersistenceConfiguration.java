package io.flashsale.bootstrap.config;

import io.flashsale.adapter.mysql.MysqlAdapterConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The database of record; DataSource, MyBatis and Flyway come from Boot's auto-configuration. A read-only replica,
 * when one is configured, serves the reads the MySQL adapter routes to it ({@link ReplicaConfiguration}, ADR 86).
 */
@Configuration(proxyBeanMethods = false)
@Import({MysqlAdapterConfiguration.class, ReplicaConfiguration.class})
public class PersistenceConfiguration {
}
