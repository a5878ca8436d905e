package io.flashsale.bootstrap.config;

import io.flashsale.adapter.mysql.MysqlAdapterConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** The database of record; DataSource, MyBatis and Flyway come from Boot's auto-configuration. */
@Configuration(proxyBeanMethods = false)
@Import(MysqlAdapterConfiguration.class)
public class PersistenceConfiguration {
}
