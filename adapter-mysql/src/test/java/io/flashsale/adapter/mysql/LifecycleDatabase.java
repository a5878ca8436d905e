package io.flashsale.adapter.mysql;

import io.flashsale.testsupport.TestServices;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The database of the order lifecycle tests, made afresh once per test JVM and shared by their classes (one Spring
 * context). The session runs in a non-UTC zone, so stored times are shown to be UTC, and gives up lock waits after a
 * few seconds, so a test that blocks fails instead of hanging.
 */
abstract class LifecycleDatabase {

    static final String DATABASE = TestServices.mariadb().freshDatabase("flashsale_it_lifecycle");
    static final int LOCK_WAIT_SECONDS = 5;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TestServices.mariadb().springDatasource(DATABASE).registerIn(registry);
        registry.add("spring.datasource.hikari.maximum-pool-size", () -> "16");
        registry.add("spring.datasource.hikari.connection-init-sql",
                () -> "SET time_zone = '+05:45', innodb_lock_wait_timeout = " + LOCK_WAIT_SECONDS);
    }
}
