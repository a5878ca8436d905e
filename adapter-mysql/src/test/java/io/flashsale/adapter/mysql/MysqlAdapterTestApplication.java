package io.flashsale.adapter.mysql;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/** The adapter as bootstrap uses it: Boot's auto-configuration plus the adapter's own configuration. */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(MysqlAdapterConfiguration.class)
class MysqlAdapterTestApplication {
}
