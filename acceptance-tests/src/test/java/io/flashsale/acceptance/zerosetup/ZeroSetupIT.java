package io.flashsale.acceptance.zerosetup;

import io.flashsale.acceptance.api.ApiAnswer;
import io.flashsale.acceptance.api.ApiCall;
import io.flashsale.acceptance.api.FlashsaleApi;
import io.flashsale.acceptance.api.SaleSpec;
import io.flashsale.testsupport.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The README's run command on a machine where nothing answers: the runnable jar, started in the demo profile with no
 * Redis, database or Kafka configured and its probe addresses pointed at ports where nothing listens, starts all three
 * in-process (demo mode), signs its buyers in through its demo issuer, sells exactly 10 units to a crowd of 200, turns
 * them into 10 orders, and after a restart on the same data directories still has them. Without the demo profile the
 * same jar refuses to start and names what to configure (ADR 80). The service's output is in
 * {@code target/zero-setup/life-N.log}.
 */
class ZeroSetupIT {

    private static final String ADMIN_TOKEN = "zero-setup-admin-token-0123456789abcdef";
    private static final String SKU = "demo-phone";
    private static final int STOCK = 10;
    private static final int BUYERS = 200;
    private static final Duration START_PATIENCE = Duration.ofMinutes(4);
    private static final Duration STOP_PATIENCE = Duration.ofSeconds(60);
    private static final List<String> JVM_OPTIONS = List.of("-Xms128m", "-Xmx512m", "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC");

    @Test
    @Timeout(value = 15, unit = TimeUnit.MINUTES)
    void givenNothingConfiguredAndNothingAnswering_whenTheJarStarts_thenItRunsOnEmbeddedServersAndSellsExactlyTheStock()
            throws IOException {
        Path home = Path.of("target", "zero-setup", UUID.randomUUID().toString()).toAbsolutePath();
        Map<String, String> settings = nothingConfigured(home);
        String saleId = "zero-" + UUID.randomUUID().toString().substring(0, 8);
        Instant startsAt = Instant.now().plusSeconds(5).truncatedTo(ChronoUnit.SECONDS);
        SaleSpec sale = new SaleSpec(saleId, "Zero-setup sale", startsAt, startsAt.plus(1, ChronoUnit.HOURS), 1,
                List.of(SaleSpec.Product.of(SKU, STOCK)));

        // Stopped with SIGTERM, never SIGKILL: a killed JVM would leave its Redis and MariaDB children running.
        ServiceProcess first = start(settings, home.resolve("life-1.log"));
        try {
            assertThat(Files.readString(first.log(), StandardCharsets.UTF_8))
                    .contains("DEMO MODE")
                    .contains("data in " + home.resolve("data/redis"))
                    .contains("data in " + home.resolve("data/mariadb"))
                    .contains("starting the embedded broker");
            FlashsaleApi api = FlashsaleApi.inDemoMode(first.port(), ADMIN_TOKEN);
            assertThat(api.send(api.createSale(sale.toBody())).status()).isEqualTo(201);
            assertThat(api.send(api.warmUp(saleId)).status()).isEqualTo(200);
            sleepUntil(startsAt);

            List<ApiCall> crowd = new ArrayList<>();
            for (int buyer = 0; buyer < BUYERS; buyer++) {
                crowd.add(api.reserve(saleId, "buyer-" + buyer, Map.of("requestId", "r-" + buyer,
                        "items", List.of(Map.of("skuId", SKU, "quantity", 1)))));
            }
            Map<String, Long> outcomes = api.sendTogether(crowd).stream()
                    .collect(Collectors.groupingBy(ZeroSetupIT::outcome, LinkedHashMap::new, Collectors.counting()));
            assertThat(outcomes).containsOnly(Map.entry("202", (long) STOCK), Map.entry("SOLD_OUT", (long) BUYERS - STOCK));

            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> assertThat(ledger(api, saleId)).isEqualTo(Map.of(
                            "total", (long) STOCK, "available", 0L, "reserved", 0L, "sold", (long) STOCK)));
        } finally {
            first.stop(STOP_PATIENCE);
        }

        ServiceProcess second = start(settings, home.resolve("life-2.log"));
        try {
            FlashsaleApi api = FlashsaleApi.inDemoMode(second.port(), ADMIN_TOKEN);
            assertThat(api.send(api.sale(saleId)).status()).isEqualTo(200);
            assertThat(ledger(api, saleId)).containsEntry("sold", (long) STOCK).containsEntry("available", 0L);
        } finally {
            second.stop(STOP_PATIENCE);
        }
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void givenNothingConfiguredAndNoDemoProfile_whenTheJarStarts_thenItRefusesToStartNamingTheProperty() {
        Path home = Path.of("target", "zero-setup", UUID.randomUUID().toString()).toAbsolutePath();
        Map<String, String> settings = nothingConfigured(home);
        settings.remove("spring.profiles.active");

        assertThatThrownBy(() -> start(settings, home.resolve("production-defaults.log")))
                .hasMessageContaining("before it was ready")
                // The broker's launcher runs first; each server's refusal names its property the same way.
                .hasMessageContaining("No Kafka brokers configured: set spring.kafka.bootstrap-servers");
        assertThat(home.resolve("data/redis")).as("no embedded server was started").doesNotExist();
        assertThat(home.resolve("data/mariadb")).doesNotExist();
    }

    /**
     * Only what a newcomer might pass: the README's demo profile, a port, a token, where ./data is; the probes point
     * where nothing listens.
     */
    private static Map<String, String> nothingConfigured(Path home) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("spring.profiles.active", "demo");
        settings.put("flashsale.admin.token", ADMIN_TOKEN);
        settings.put("flashsale.embedded.redis.probe", "127.0.0.1:" + ServiceProcess.freePort());
        settings.put("flashsale.embedded.mariadb.probe", "127.0.0.1:" + ServiceProcess.freePort());
        settings.put("flashsale.embedded.redis.data-dir", home.resolve("data/redis").toString());
        settings.put("flashsale.embedded.mariadb.data-dir", home.resolve("data/mariadb").toString());
        settings.put("flashsale.kafka.embedded.data-dir", home.resolve("data/kafka").toString());
        // Other test runs on this machine may hold 9092; the embedded servers' own ports are free ones already.
        settings.put("flashsale.kafka.embedded.port", "0");
        return settings;
    }

    private static ServiceProcess start(Map<String, String> settings, Path log) {
        Map<String, String> withPort = new LinkedHashMap<>(settings);
        withPort.put("server.port", Integer.toString(ServiceProcess.freePort()));
        ServiceProcess process = ServiceProcess.start(ServiceProcess.runnableJar(), JVM_OPTIONS, withPort, log);
        try {
            return process.awaitReady(START_PATIENCE);
        } catch (RuntimeException e) {
            process.stop(STOP_PATIENCE);
            throw e;
        }
    }

    private static String outcome(ApiAnswer answer) {
        return answer.status() == 202 ? "202" : answer.code();
    }

    private static Map<String, Long> ledger(FlashsaleApi api, String saleId) {
        ApiAnswer stock = api.send(api.stockView(saleId));
        assertThat(stock.status()).as(stock.describe()).isEqualTo(200);
        JsonNode item = stock.json().get("items").get(0);
        Function<String, Long> field = name -> item.get(name).asLong();
        return Map.of("total", field.apply("total"), "available", field.apply("available"),
                "reserved", field.apply("reserved"), "sold", field.apply("sold"));
    }

    private static void sleepUntil(Instant moment) {
        long millis = Duration.between(Instant.now(), moment).toMillis() + 200;
        if (millis > 0) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }
}
