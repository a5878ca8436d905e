package io.flashsale.adapter.mysql;

import io.flashsale.testsupport.TestServices;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The database of the reconciliation tests, made afresh once per test JVM and shared by their classes (one Spring
 * context). Like {@link LifecycleDatabase}: a non-UTC session zone and short lock waits.
 */
abstract class ReconciliationDatabase {

    static final String DATABASE = TestServices.mariadb().freshDatabase("flashsale_it_reconcile");

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TestServices.mariadb().springDatasource(DATABASE).registerIn(registry);
        registry.add("spring.datasource.hikari.maximum-pool-size", () -> "16");
        registry.add("spring.datasource.hikari.connection-init-sql",
                () -> "SET time_zone = '-03:30', innodb_lock_wait_timeout = 5");
    }
}
