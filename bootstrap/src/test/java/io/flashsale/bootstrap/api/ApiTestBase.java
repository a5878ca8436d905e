package io.flashsale.bootstrap.api;

import io.flashsale.testsupport.RedisEndpoint;
import io.flashsale.testsupport.TestBuyerTokens;
import io.flashsale.testsupport.TestServices;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole service on a random port against the real Redis and MariaDB, driven over HTTP. Every test
 * makes its own activities under fresh ids, so runs never see each other's data on the shared servers.
 */
// Every test here comes from 127.0.0.1 and many send wrong tokens on purpose: AdminTokenIT tests the allowance (its
// @DynamicPropertySource outranks this).
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "flashsale.admin.failures-allowed=100000")
@Import(ApiTestBase.FailingController.class)
// A buyer's read shows the hot store's figures of that moment, so tests see at once what a request did;
// SaleFiguresIT runs with the figures remembered, as the service does by default.
@TestPropertySource(properties = "flashsale.activity-cache.figures-fresh-for=0")
abstract class ApiTestBase {

    static final String ADMIN_TOKEN = "bootstrap-it-admin-token-0123456789abcdef";
    /** Two named operators beside "admin", each with a token of their own: a stock adjustment needs two (ADR 84). */
    static final String OLIVIA_TOKEN = "bootstrap-it-olivia-token-0123456789abcde";
    static final String PETER_TOKEN = "bootstrap-it-peter-token-0123456789abcdef";
    /** One per test JVM: overlapping runs on one server never share it. */
    static final String DATABASE = TestServices.mariadb().freshDatabase("flashsale_it_bootstrap");
    static final String PROBLEM_JSON = "application/problem+json";
    /** This test JVM's own topic and outbox registry: other runs on the same servers never see these events. */
    static final String RUN = UUID.randomUUID().toString().replace("-", "");
    static final String TOPIC = "flashsale-it-api-" + RUN;

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    @LocalServerPort
    int port;

    /** The actuator's own port (ADR 73): a random one in tests, as the buyers' port. */
    @LocalManagementPort
    int managementPort;

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        RedisEndpoint redis = TestServices.redis();
        registry.add("spring.data.redis.host", redis::host);
        registry.add("spring.data.redis.port", redis::port);
        TestServices.mariadb().springDatasource(DATABASE).registerIn(registry);
        registry.add("flashsale.admin.token", () -> ADMIN_TOKEN);
        registry.add("flashsale.admin.operators[0].name", () -> "olivia");
        registry.add("flashsale.admin.operators[0].token", () -> OLIVIA_TOKEN);
        registry.add("flashsale.admin.operators[1].name", () -> "peter");
        registry.add("flashsale.admin.operators[1].token", () -> PETER_TOKEN);
        registry.add("spring.kafka.bootstrap-servers", () -> TestServices.kafka().bootstrapServers());
        registry.add("flashsale.kafka.topic", () -> TOPIC);
        registry.add("flashsale.kafka.consumer.group-id", () -> "flashsale-it-api-" + RUN);
        registry.add("flashsale.redis.outbox-registry", () -> "fs:outbox:it-api-" + RUN);
        // Reservations stay RESERVED here, so these tests see exactly what the reservation path did.
        registry.add("flashsale.relay.enabled", () -> "false");
        // Sales are warmed up and archived only when a test says so.
        registry.add("flashsale.warm-up.schedule-enabled", () -> "false");
        registry.add("flashsale.archive.schedule-enabled", () -> "false");
        registry.add("flashsale.reconciliation.schedule-enabled", () -> "false");
    }


    /** Exists only in tests: shows what a caller sees when something breaks inside the service. */
    @TestConfiguration
    @RestController
    static class FailingController {

        static final String SECRET = "db-password-hunter2";

        @GetMapping("/api/v1/test-only/failure")
        String fail() {
            throw new IllegalStateException("internal detail " + SECRET);
        }
    }

    record Reply(int status, HttpHeaders headers, String body) {

        JsonNode json() {
            return JSON.readTree(body);
        }

        String header(String name) {
            return headers.firstValue(name).orElse(null);
        }

        String code() {
            return json().path("code").asString();
        }
    }

    // ---- HTTP ----

    /**
     * The header that names a signed-in buyer: {@code Authorization}, with a bearer token of the tests' issuer
     * ({@code buyer-auth=jwt}, the default; its key is set in {@code config/application.properties}). A class that runs
     * the service with {@code trusted-header} names the buyer as a gateway would.
     */
    String buyerHeader() {
        return "Authorization";
    }

    /** The value of {@link #buyerHeader()} for {@code buyer}. */
    String signedIn(String buyer) {
        return TestBuyerTokens.rsa().bearer(buyer);
    }

    Reply get(String path, String... headers) {
        return send(request(path, headers).GET());
    }

    Reply post(String path, String body, String... headers) {
        return send(request(path, headers).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    Reply asAdmin(String method, String path, String body) {
        return asOperator(ADMIN_TOKEN, method, path, body);
    }

    /** An admin call with one operator's own token: the operator it names is who made the call. */
    Reply asOperator(String token, String method, String path, String body) {
        HttpRequest.Builder request = request(path, "Authorization", "Bearer " + token);
        if (body == null) {
            return send(request.method(method, HttpRequest.BodyPublishers.noBody()));
        }
        return send(request.header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(body)));
    }

    /**
     * A stock adjustment as the service takes one: proposed by "admin", approved by "peter" (ADR 84). The proposal's
     * refusal when it is refused, else the approval's answer.
     */
    Reply proposeAndApprove(String activityId, String adjustment) {
        Reply proposed = asAdmin("POST", "/api/v1/activities/" + activityId + "/stock-adjustments", adjustment);
        if (proposed.status() != 202) {
            return proposed;
        }
        return asOperator(PETER_TOKEN, "POST", "/api/v1/activities/" + activityId + "/stock-adjustments/proposals/"
                + proposed.json().path("id").asLong() + "/approval", null);
    }

    /** A GET on the management port, with the admin token. */
    Reply operator(String path) {
        return send(managementRequest(path, "Authorization", "Bearer " + ADMIN_TOKEN).GET());
    }

    HttpRequest.Builder managementRequest(String path, String... headers) {
        return request(managementPort, path, headers);
    }

    HttpRequest.Builder request(String path, String... headers) {
        return request(port, path, headers);
    }

    static HttpRequest.Builder request(int port, String path, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return request;
    }

    static Reply send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Reply(response.statusCode(), response.headers(), response.body());
        } catch (IOException e) {
            throw new IllegalStateException("request failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    // ---- the API in test words ----

    static String newId() {
        return "it-" + UUID.randomUUID().toString().replace("-", "");
    }

    static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }

    /** A sale body; items as {@code {"skuId":..,"stock":..}} JSON fragments. */
    static String activityJson(String id, Instant startsAt, Instant endsAt, Integer perUserLimit, String... items) {
        var json = new StringBuilder("{");
        if (id != null) {
            json.append("\"id\":\"").append(id).append("\",");
        }
        json.append("\"name\":\"Sale ").append(id).append("\",")
                .append("\"startsAt\":\"").append(startsAt).append("\",")
                .append("\"endsAt\":\"").append(endsAt).append("\",");
        if (perUserLimit != null) {
            json.append("\"perUserLimit\":").append(perUserLimit).append(',');
        }
        json.append("\"items\":[").append(String.join(",", items)).append("]}");
        return json.toString();
    }

    static String item(String skuId, long stock) {
        return "{\"skuId\":\"" + skuId + "\",\"stock\":" + stock + "}";
    }

    Reply createActivity(String body) {
        return asAdmin("POST", "/api/v1/activities", body);
    }

    /** An activity that is open now (started a minute ago, ends in an hour), not warmed up. */
    String createOpenActivity(int perUserLimit, String... items) {
        String id = newId();
        Reply created = createActivity(activityJson(id, now().minusSeconds(60), now().plusSeconds(3600), perUserLimit, items));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return id;
    }

    /** An open, warmed-up activity, ready for buyers. */
    String openSale(int perUserLimit, String... items) {
        String id = createOpenActivity(perUserLimit, items);
        Reply warmedUp = asAdmin("POST", "/api/v1/activities/" + id + "/warm-up", null);
        assertThat(warmedUp.status()).as(warmedUp.body()).isEqualTo(200);
        return id;
    }

    Reply reserve(String activityId, String buyer, String body, String... extraHeaders) {
        List<String> headers = new ArrayList<>(List.of(buyerHeader(), signedIn(buyer)));
        headers.addAll(List.of(extraHeaders));
        return post("/api/v1/activities/" + activityId + "/reservations", body, headers.toArray(String[]::new));
    }

    static String lines(String requestId, String... lines) {
        String prefix = requestId == null ? "{" : "{\"requestId\":\"" + requestId + "\",";
        return prefix + "\"items\":[" + String.join(",", lines) + "]}";
    }

    static String line(String skuId, int quantity) {
        return "{\"skuId\":\"" + skuId + "\",\"quantity\":" + quantity + "}";
    }

    JsonNode stock(String activityId) {
        Reply stock = asAdmin("GET", "/api/v1/activities/" + activityId + "/stock", null);
        assertThat(stock.status()).as(stock.body()).isEqualTo(200);
        return stock.json();
    }

    /** available/reserved/sold of one SKU, as the admin endpoint reports them. */
    long[] ledger(String activityId, String skuId) {
        for (JsonNode sku : stock(activityId).path("items")) {
            if (sku.path("skuId").asString().equals(skuId)) {
                return new long[] {sku.path("available").asLong(), sku.path("reserved").asLong(), sku.path("sold").asLong()};
            }
        }
        throw new AssertionError("no SKU " + skuId + " in activity " + activityId);
    }

    static void assertProblem(Reply reply, int status, String code) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(status);
        assertThat(reply.header("Content-Type")).as(reply.body()).startsWith(PROBLEM_JSON);
        assertThat(reply.json().path("status").asInt()).isEqualTo(status);
        assertThat(reply.code()).as(reply.body()).isEqualTo(code);
    }
}
