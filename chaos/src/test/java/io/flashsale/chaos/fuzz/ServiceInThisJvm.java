package io.flashsale.chaos.fuzz;

import io.flashsale.application.sale.port.in.GetStockUseCase;
import io.flashsale.bootstrap.FlashsaleApplication;
import io.flashsale.chaos.check.Books;
import io.flashsale.chaos.check.HotLedger;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.stock.SkuStock;
import io.flashsale.testsupport.ServiceProcess;
import io.flashsale.testsupport.TestBuyerTokens;
import io.flashsale.testsupport.TestServices;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The service, started in the fuzzer's JVM (so the fuzzer's instrumentation of {@code io.flashsale} sees which
 * branches an input took) on a real port, against the shared MariaDB (its own database), Redis and a Kafka broker,
 * with its own topic, consumer group and outbox registry. The ledgers are read in-process, the books over JDBC.
 */
final class ServiceInThisJvm implements AutoCloseable {

    private final ConfigurableApplicationContext context;
    private final int port;
    private final String adminToken;
    private final Books books;

    private ServiceInThisJvm(ConfigurableApplicationContext context, int port, String adminToken, Books books) {
        this.context = context;
        this.port = port;
        this.adminToken = adminToken;
        this.books = books;
    }

    static ServiceInThisJvm start(String run, String adminToken) {
        var mariadb = TestServices.mariadb();
        var redis = TestServices.redis();
        int port = ServiceProcess.freePort();
        String jdbcUrl = mariadb.jdbcUrl(mariadb.freshDatabase("flashsale_fuzz"));
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("server.port", port);
        properties.put("management.server.port", 0);
        properties.put("spring.datasource.url", jdbcUrl);
        properties.put("spring.datasource.username", mariadb.username());
        properties.put("spring.datasource.password", mariadb.password());
        properties.put("spring.data.redis.host", redis.host());
        properties.put("spring.data.redis.port", redis.port());
        properties.put("spring.kafka.bootstrap-servers", TestServices.kafka().bootstrapServers());
        properties.put("flashsale.embedded.enabled", false);
        properties.put("flashsale.kafka.embedded.enabled", false);
        properties.put("flashsale.kafka.topic", "flashsale." + run + ".reservations");
        properties.put("flashsale.kafka.consumer.group-id", "flashsale-" + run);
        properties.put("flashsale.redis.outbox-registry", "fs:outbox:" + run);
        properties.put("flashsale.admin.token", adminToken);
        properties.put(TestBuyerTokens.PUBLIC_KEY_LOCATION_PROPERTY, TestBuyerTokens.CLASSPATH_PUBLIC_KEY_LOCATION);
        // Every fuzzed request comes from 127.0.0.1 and many carry a wrong admin token on purpose (a buyer's token on
        // an operator's path among them): the allowance (AdminTokenIT) would lock the audit after the drain out.
        properties.put("flashsale.admin.failures-allowed", 1_000_000);
        // The fuzzer pays as the buyer; its unsigned notifications must all be refused.
        properties.put("flashsale.payment.buyer-confirms", true);
        properties.put("flashsale.payment.notification-secret", "fuzz-notification-secret");
        properties.put("logging.level.root", "WARN");
        // As command-line arguments: they outrank application.yaml (default properties would not).
        String[] arguments = properties.entrySet().stream()
                .map(property -> "--" + property.getKey() + "=" + property.getValue()).toArray(String[]::new);
        ConfigurableApplicationContext context = new SpringApplicationBuilder(FlashsaleApplication.class)
                .run(arguments);
        return new ServiceInThisJvm(context, port, adminToken, new Books(jdbcUrl, mariadb.username(),
                mariadb.password()));
    }

    int port() {
        return port;
    }

    String adminToken() {
        return adminToken;
    }

    Books books() {
        return books;
    }

    /** Each SKU's counters as Redis holds them, through the service's own read (one round trip, no HTTP). */
    Map<String, HotLedger> ledgers(String saleId) {
        Map<String, HotLedger> ledgers = new LinkedHashMap<>();
        for (SkuStock sku : context.getBean(GetStockUseCase.class).stock(new ActivityId(saleId))) {
            ledgers.put(sku.skuId().value(), new HotLedger(sku.ledger().total(), sku.ledger().available(),
                    sku.ledger().reserved(), sku.ledger().sold()));
        }
        return ledgers;
    }

    Map<String, Long> available(String saleId) {
        Map<String, Long> available = new LinkedHashMap<>();
        ledgers(saleId).forEach((sku, ledger) -> available.put(sku, ledger.available()));
        return available;
    }

    @Override
    public void close() {
        context.close();
    }
}
