package io.flashsale.bootstrap.cluster;

import io.flashsale.bootstrap.FlashsaleApplication;
import io.flashsale.testsupport.RedisClusterEndpoint;
import io.flashsale.testsupport.TestServices;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

import javax.sql.DataSource;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One sale in 3 slices on a 3-master Redis Cluster, sold through two service instances that share one broker and one
 * database (ADR 109): 2,000 buyers send 3 attempts each, alternately to either instance, for 3,000 units with a limit
 * of 2. Exactly 3,000 units are reserved, nobody holds more than 2, each accepted reservation becomes exactly one
 * order, and the slices sit on three masters. A unit a buyer cancels through one instance is bought through the other.
 * Attempts told to try again while units move between slices are sent again after the wait they name, as a client
 * does.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class SlicedClusterRaceIT {

    private static final int BUYERS = 2_000;
    private static final int ATTEMPTS = 3;
    private static final int UNITS = 3_000;
    private static final int LIMIT = 2;
    private static final int SLICES = 3;
    private static final int CLIENTS = 48;
    private static final String SKU = "sku-a";
    private static final String ADMIN_TOKEN = "cluster-race-it-admin-token-0123456789abcdef";
    private static final String RUN = UUID.randomUUID().toString().replace("-", "");
    private static final String DATABASE = TestServices.mariadb().freshDatabase("flashsale_it_cluster_race");

    private static final List<ConfigurableApplicationContext> INSTANCES = new ArrayList<>();
    private static List<Integer> ports;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ObjectMapper json = new ObjectMapper();

    @BeforeAll
    static void startTwoInstances() {
        ports = List.of(port(start("first")), port(start("second")));
    }

    @AfterAll
    static void stopInstances() {
        INSTANCES.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void givenASaleInThreeSlicesOnThreeMasters_whenTwoThousandBuyersRaceThroughTwoInstances_thenExactlyItsStockIsSold()
            throws Exception {
        String id = openSale("cluster-race-", UNITS, LIMIT);

        Map<String, String> accepted = new ConcurrentHashMap<>();
        Map<String, AtomicInteger> heldBy = new ConcurrentHashMap<>();
        Map<String, AtomicInteger> refusals = new ConcurrentHashMap<>();
        try (ExecutorService clients = Executors.newFixedThreadPool(CLIENTS)) {
            List<Future<?>> sent = new ArrayList<>();
            for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
                for (int b = 0; b < BUYERS; b++) {
                    String buyer = "buyer-" + b;
                    int port = ports.get((b + attempt) % ports.size());
                    String requestId = "attempt-" + attempt;
                    sent.add(clients.submit(() -> {
                        Reply answer = reserveUntilDecided(port, id, buyer, requestId);
                        if (answer.status() == 202) {
                            accepted.put(answer.json().path("reservationId").asString(), buyer);
                            heldBy.computeIfAbsent(buyer, key -> new AtomicInteger()).incrementAndGet();
                        } else {
                            refusals.computeIfAbsent(answer.status() + " " + answer.json().path("code").asString(),
                                    key -> new AtomicInteger()).incrementAndGet();
                        }
                        return null;
                    }));
                }
            }
            for (Future<?> each : sent) {
                each.get(4, TimeUnit.MINUTES);
            }
        }

        assertThat(accepted).as("refusals: " + refusals).hasSize(UNITS);
        assertThat(heldBy.values()).as("nobody over the limit").allMatch(held -> held.get() <= LIMIT);
        assertThat(refusals.keySet()).as("the only refusals: sold out and the limit")
                .isSubsetOf("409 SOLD_OUT", "409 LIMIT_EXCEEDED");
        JdbcTemplate database = database();
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                assertThat(database.queryForObject("SELECT COUNT(*) FROM purchase_order WHERE activity_id = ?",
                        Long.class, id)).as("every accepted reservation an order").isEqualTo(UNITS));
        List<String> orders = database.queryForList("SELECT reservation_id FROM purchase_order WHERE activity_id = ?"
                + " AND status = 'ORDERED'", String.class, id);
        assertThat(orders).as("each reservation one order").doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(accepted.keySet());
        assertThat(database.queryForObject("SELECT sold FROM activity_item WHERE activity_id = ? AND sku_id = ?",
                Long.class, id, SKU)).as("the database's sold units").isEqualTo(UNITS);
    }

    @Test
    void givenASoldOutSaleInSlices_whenABuyerCancelsThroughOneInstance_thenTheUnitIsBoughtThroughTheOther()
            throws Exception {
        String id = openSale("cluster-cancel-", 6, 1);
        int first = ports.getFirst();
        int second = ports.get(1);
        Map<String, String> accepted = new ConcurrentHashMap<>();
        for (int b = 0; accepted.size() < 6; b++) {
            Reply answer = reserveUntilDecided(first, id, "early-" + b, "k");
            assertThat(answer.status()).as(answer.body()).isEqualTo(202);
            accepted.put(answer.json().path("reservationId").asString(), "early-" + b);
        }
        Reply soldOut = reserveUntilDecided(second, id, "late-0", "k");
        assertThat(soldOut.json().path("code").asString()).as(soldOut.body()).isEqualTo("SOLD_OUT");
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300)).untilAsserted(() ->
                assertThat(database().queryForObject("SELECT COUNT(*) FROM purchase_order WHERE activity_id = ?"
                        + " AND status = 'ORDERED'", Long.class, id)).isEqualTo(6));
        Map.Entry<String, String> cancelled = accepted.entrySet().iterator().next();

        Reply cancel = send(first, "POST", "/api/v1/reservations/" + cancelled.getKey() + "/cancellation", null,
                "X-User-Id", cancelled.getValue());

        assertThat(cancel.status()).as(cancel.body()).isBetween(200, 299);
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            Reply bought = reserveUntilDecided(second, id, "late-1", "k");
            assertThat(bought.status()).as("the unit given back, bought through the other instance: "
                    + bought.body()).isEqualTo(202);
        });
        assertThat(reserveUntilDecided(first, id, "late-2", "k").json().path("code").asString())
                .as("then sold out again").isEqualTo("SOLD_OUT");
    }

    /** A sale of {@code units} units of one SKU in {@link #SLICES} slices, created and warmed through the first. */
    private String openSale(String prefix, int units, int limit) throws Exception {
        String id = prefix + RUN.substring(0, 12);
        Instant now = Instant.now();
        Reply created = send(ports.getFirst(), "POST", "/api/v1/activities", "{\"id\":\"" + id
                + "\",\"name\":\"Cluster sale\",\"startsAt\":\"" + now.minusSeconds(60) + "\",\"endsAt\":\""
                + now.plusSeconds(3600) + "\",\"perUserLimit\":" + limit + ",\"slices\":" + SLICES
                + ",\"items\":[{\"skuId\":\"" + SKU + "\",\"stock\":" + units + "}]}", "Authorization",
                "Bearer " + ADMIN_TOKEN);
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        Reply warmed = send(ports.getFirst(), "POST", "/api/v1/activities/" + id + "/warm-up", null,
                "Authorization", "Bearer " + ADMIN_TOKEN);
        assertThat(warmed.status()).as(warmed.body()).isEqualTo(200);
        assertThat(warmed.json().path("placement").path("masters").asInt()).as("each slice on a master of its own: "
                + warmed.body()).isEqualTo(SLICES);
        return id;
    }

    private static JdbcTemplate database() {
        return new JdbcTemplate(INSTANCES.getFirst().getBean(DataSource.class));
    }

    /** The attempt, sent again after the wait it names while units are on their way between slices. */
    private Reply reserveUntilDecided(int port, String id, String buyer, String requestId) throws Exception {
        String body = "{\"requestId\":\"" + requestId + "\",\"items\":[{\"skuId\":\"" + SKU + "\",\"quantity\":1}]}";
        for (int tries = 1; ; tries++) {
            Reply answer = send(port, "POST", "/api/v1/activities/" + id + "/reservations", body, "X-User-Id", buyer);
            if (answer.status() != 503 || tries == 100) {
                return answer;
            }
            assertThat(answer.json().path("code").asString()).as(answer.body()).isEqualTo("TRY_AGAIN");
            Thread.sleep(Math.max(1, answer.json().path("retryAfterMillis").asLong()));
        }
    }

    private Reply send(int port, String method, String path, String body, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30)).headers(headers).header("Content-Type", "application/json");
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        return new Reply(response.statusCode(), response.body(), json);
    }

    private static ConfigurableApplicationContext start(String instance) {
        RedisClusterEndpoint cluster = TestServices.redisCluster();
        // As arguments: they win over application.yaml, as they do for an operator's command line.
        List<String> arguments = new ArrayList<>(List.of(
                "--test.instance=" + instance,
                "--server.port=0",
                "--management.server.port=0",
                "--spring.main.banner-mode=off",
                "--spring.data.redis.cluster.nodes=" + String.join(",", cluster.nodes()),
                "--spring.kafka.bootstrap-servers=" + TestServices.kafka().bootstrapServers(),
                "--flashsale.kafka.topic=flashsale-it-cluster-race-" + RUN,
                "--flashsale.kafka.consumer.group-id=flashsale-it-cluster-race-" + RUN,
                "--flashsale.redis.outbox-registry=fs:outbox:it-cluster-race-" + RUN,
                "--flashsale.admin.token=" + ADMIN_TOKEN,
                "--flashsale.security.buyer-auth=trusted-header",
                "--flashsale.warm-up.schedule-enabled=false",
                "--flashsale.archive.schedule-enabled=false",
                "--logging.level.root=WARN"));
        arguments.addAll(TestServices.mariadb().springDatasource(DATABASE).arguments());
        ConfigurableApplicationContext context = new SpringApplicationBuilder(FlashsaleApplication.class)
                .run(arguments.toArray(String[]::new));
        INSTANCES.add(context);
        return context;
    }

    private static int port(ConfigurableApplicationContext context) {
        return Integer.parseInt(context.getEnvironment().getRequiredProperty("local.server.port"));
    }

    private record Reply(int status, String body, ObjectMapper mapper) {

        JsonNode json() {
            return body.isBlank() ? mapper.createObjectNode() : mapper.readTree(body);
        }
    }
}
