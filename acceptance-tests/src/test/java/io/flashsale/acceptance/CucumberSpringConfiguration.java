package io.flashsale.acceptance;

import io.cucumber.spring.CucumberContextConfiguration;
import io.flashsale.acceptance.steps.SaleWorld;
import io.flashsale.bootstrap.FlashsaleApplication;
import io.flashsale.testsupport.MariaDbEndpoint;
import io.flashsale.testsupport.RedisEndpoint;
import io.flashsale.testsupport.TestServices;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The whole service on a random port, on real Redis and MariaDB; the steps reach it only over HTTP. */
@CucumberContextConfiguration
@SpringBootTest(classes = FlashsaleApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Import(SaleWorld.class)
public class CucumberSpringConfiguration {

    public static final String ADMIN_TOKEN = "acceptance-admin-token";
    private static final String DATABASE = "flashsale_it_acceptance";

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        RedisEndpoint redis = TestServices.redis();
        MariaDbEndpoint mariadb = TestServices.mariadb();
        // A fresh schema each run: migrations edited during development must not meet an old history.
        mariadb.recreateDatabase(DATABASE);
        registry.add("spring.data.redis.host", redis::host);
        registry.add("spring.data.redis.port", redis::port);
        registry.add("spring.datasource.url", () -> mariadb.jdbcUrl(DATABASE));
        registry.add("spring.datasource.username", mariadb::username);
        registry.add("spring.datasource.password", mariadb::password);
        registry.add("flashsale.admin.token", () -> ADMIN_TOKEN);
    }
}
