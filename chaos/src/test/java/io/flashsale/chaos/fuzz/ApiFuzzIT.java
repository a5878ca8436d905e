package io.flashsale.chaos.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.flashsale.bootstrap.FlashsaleApplication;
import io.flashsale.testsupport.ServiceProcess;
import io.flashsale.testsupport.TestServices;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Coverage-guided fuzzing of the HTTP API with Jazzer: the service runs in this JVM (so Jazzer's instrumentation
 * of {@code io.flashsale} guides the inputs through its validation and handlers), every input becomes one request
 * (method, path, buyer header, idempotency key, content type, a structured or raw body with unicode, deep nesting
 * and extreme numbers). No answer may be a 500; a refused reservation must leave the sale's ledgers exactly as they
 * were (no partial deduction); after the run every ledger still adds up. Opt-in with {@code -Dflashsale.fuzz=true};
 * with {@code JAZZER_FUZZ=1} in the environment it generates {@code maxExecutions} inputs; without, it replays the
 * regression corpus in
 * {@code src/test/resources/io/flashsale/chaos/fuzz/ApiFuzzITInputs/}.
 */
@EnabledIfSystemProperty(named = "flashsale.fuzz", matches = "true", disabledReason = "opt-in: Jazzer 0.24's "
        + "fuzzing mode crashed the JVM on JDK 25 (SIGSEGV in StringTable::intern after ~100 inputs); see docs/reliability.md")
class ApiFuzzIT {

    private static final String TOKEN = "fuzz-admin-token";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private static final List<String> SKUS = List.of("fz-a", "fz-b", "fz-c");
    private static final long STOCK = 1_000_000;
    private static final AtomicLong REQUESTS = new AtomicLong();

    private static ConfigurableApplicationContext service;
    private static int port;
    private static String saleId;

    @BeforeAll
    static void startTheService() throws Exception {
        String run = "fuzz-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        var mariadb = TestServices.mariadb();
        var redis = TestServices.redis();
        port = ServiceProcess.freePort();
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("server.port", port);
        properties.put("spring.datasource.url", mariadb.jdbcUrl(mariadb.freshDatabase("flashsale_fuzz")));
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
        properties.put("flashsale.admin.token", TOKEN);
        properties.put("logging.level.root", "WARN");
        // As command-line arguments: they outrank application.yaml (default properties would not).
        String[] arguments = properties.entrySet().stream()
                .map(property -> "--" + property.getKey() + "=" + property.getValue()).toArray(String[]::new);
        service = new SpringApplicationBuilder(FlashsaleApplication.class).run(arguments);
        saleId = run;
        Instant startsAt = Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(Duration.ofMinutes(1));
        List<Map<String, Object>> items = SKUS.stream()
                .map(sku -> Map.<String, Object>of("skuId", sku, "stock", STOCK)).toList();
        Map<String, Object> sale = Map.of("id", saleId, "name", "fuzzed", "startsAt", startsAt.toString(),
                "endsAt", startsAt.plus(Duration.ofHours(3)).toString(), "perUserLimit", 1000, "items", items);
        assertThat(send("POST", "/api/v1/activities", JSON.writeValueAsString(sale), "application/json", null, null,
                true).statusCode()).isEqualTo(201);
        assertThat(send("POST", "/api/v1/activities/" + saleId + "/warm-up", null, null, null, null, true)
                .statusCode()).isEqualTo(200);
    }

    @AfterAll
    static void ledgersStillAddUp() throws Exception {
        try {
            for (JsonNode item : stockView().path("items")) {
                long total = item.path("total").asLong();
                assertThat(total).as("total of %s", item).isEqualTo(STOCK);
                assertThat(item.path("available").asLong() + item.path("reserved").asLong()
                        + item.path("sold").asLong()).as("available + reserved + sold of %s", item).isEqualTo(total);
            }
            System.out.printf("[fuzz] %d requests sent%n", REQUESTS.get());
        } finally {
            if (service != null) {
                service.close();
            }
        }
    }

    @FuzzTest(maxExecutions = 10_000)
    @Timeout(value = 20, unit = TimeUnit.MINUTES)
    void givenFuzzedRequests_whenSentToTheService_thenNoServerErrorAndNoPartialDeduction(FuzzedDataProvider data)
            throws Exception {
        FuzzedRequest request = FuzzedRequest.from(data, saleId, SKUS);
        Map<String, Long> before = request.reservesStock() ? available(stockView()) : null;
        HttpResponse<String> answer;
        try {
            answer = send(request.method(), request.path(), request.body(), request.contentType(), request.buyer(),
                    request.idempotencyKey(), request.asAdmin());
        } catch (IllegalArgumentException notSendable) {
            return; // a header or path the HTTP client itself refuses to put on the wire
        }
        assertThat(answer.statusCode()).as("answer to %s: %s", request, answer.body()).isNotEqualTo(500);
        if (answer.statusCode() >= 400) {
            assertThat(answer.headers().firstValue("Content-Type").orElse(""))
                    .as("refusal of %s: %s", request, answer.body()).startsWith("application/problem+json");
        }
        if (before != null && answer.statusCode() != 202) {
            assertThat(available(stockView())).as("ledgers after the refused %s (%d %s)", request, answer.statusCode(),
                    answer.body()).isEqualTo(before);
        }
    }

    private static JsonNode stockView() throws Exception {
        HttpResponse<String> view = send("GET", "/api/v1/activities/" + saleId + "/stock", null, null, null, null, true);
        assertThat(view.statusCode()).as("stock view: %s", view.body()).isEqualTo(200);
        return JSON.readTree(view.body());
    }

    /**
     * What a refused reservation must leave untouched: each SKU's available units. (Reserved and sold move on their
     * own while the pipeline confirms earlier reservations; available only moves by a reservation or a return.)
     */
    private static Map<String, Long> available(JsonNode view) {
        Map<String, Long> available = new LinkedHashMap<>();
        view.path("items").forEach(item -> available.put(item.path("skuId").asString(), item.path("available").asLong()));
        return available;
    }

    private static HttpResponse<String> send(String method, String path, String body, String contentType,
                                             String buyer, String idempotencyKey, boolean admin)
            throws IOException, InterruptedException {
        REQUESTS.incrementAndGet();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(20))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        if (buyer != null) {
            request.header("X-User-Id", buyer);
        }
        if (idempotencyKey != null) {
            request.header("Idempotency-Key", idempotencyKey);
        }
        if (admin) {
            request.header("Authorization", "Bearer " + TOKEN);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
