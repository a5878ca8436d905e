package io.flashsale.chaos.fuzz;

import com.code_intelligence.jazzer.api.BugDetectors;
import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.flashsale.chaos.check.Books;
import io.flashsale.chaos.check.HotLedger;
import io.flashsale.chaos.fuzz.FuzzedRequest.Header;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Coverage-guided fuzzing of the HTTP API with Jazzer, in every CI run: the service runs in this JVM on a real port
 * (so Jazzer's instrumentation of {@code io.flashsale} steers the inputs through its filters, validation, handlers
 * and use cases), and every input becomes one request on the wire (see {@link RequestGenerator}). Per request: no
 * 5xx but a documented 503, every refusal problem+json with a documented code, and the sale's available units moved
 * exactly as the answers say (a refused or replayed reservation deducts nothing, a granted one exactly its lines).
 * After the run, once the pipeline drained, {@link FuzzAudit} holds Redis and the answers against MySQL.
 *
 * <p>With {@code JAZZER_FUZZ=true} (the module's default, from {@code -Dflashsale.fuzz}) Jazzer runs
 * {@value #EXECUTIONS} inputs, seeded by the regression corpus in
 * {@code src/test/resources/io/flashsale/chaos/fuzz/ApiFuzzITInputs/}, and saves an input that fails there; with
 * {@code -Dflashsale.fuzz=false} it only replays that corpus.
 */
@Order(Integer.MAX_VALUE) // after the module's other ITs: Jazzer's agent stays in the JVM once installed (pom.xml)
class ApiFuzzIT {

    static final int EXECUTIONS = 10_000;

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** A SKU that never runs out, one with its own low limit, one that sells out: every refusal is reachable. */
    private static final Map<String, Long> STOCK = Map.of("fz-a", 1_000_000L, "fz-b", 1_000_000L, "fz-c", 40L);
    private static final Duration DRAIN_PATIENCE = Duration.ofSeconds(120);

    private static ServiceInThisJvm service;
    private static Wire wire;
    private static String saleId;
    private static SaleAccount account;
    private static RequestGenerator generator;
    private static final Map<Integer, Integer> STATUSES = new TreeMap<>();
    private static long requests;
    private static long firstRequestNanos;

    @BeforeAll
    @Timeout(value = 10, unit = TimeUnit.MINUTES) // the instrumented start took 210 s at a load average of 28
    static void startTheServiceWithOneSale() throws Exception {
        String run = "fuzz-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        service = ServiceInThisJvm.start(run, "fuzz-admin-token-0123456789abcdef-" + run);
        wire = new Wire(service.port());
        saleId = run;
        Instant startsAt = Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(Duration.ofMinutes(1));
        String sale = JSON.writeValueAsString(Map.of("id", saleId, "name", "fuzzed", "startsAt", startsAt.toString(),
                "endsAt", startsAt.plus(Duration.ofHours(3)).toString(), "perUserLimit", 50,
                "paymentTimeoutSeconds", 3600, "items", List.of(
                        Map.of("skuId", "fz-a", "stock", STOCK.get("fz-a"), "segments", 4),
                        Map.of("skuId", "fz-b", "stock", STOCK.get("fz-b"), "perUserLimit", 5),
                        Map.of("skuId", "fz-c", "stock", STOCK.get("fz-c"), "segments", 2))));
        assertThat(operator("POST", "/api/v1/activities", sale).status()).isEqualTo(201);
        assertThat(operator("POST", "/api/v1/activities/" + saleId + "/warm-up", null).status()).isEqualTo(200);
        account = new SaleAccount(saleId);
        account.baseline(service.available(saleId));
        generator = new RequestGenerator(saleId, List.copyOf(new TreeSet<>(STOCK.keySet())),
                service.adminToken(), account);
    }

    @AfterAll
    static void theBooksBalanceOnceDrained() throws Exception {
        if (account == null) {
            return; // the service did not start: @BeforeAll's failure says why
        }
        try {
            double seconds = (System.nanoTime() - firstRequestNanos) / 1e9;
            System.out.printf("[fuzz] %d requests in %.1f s (%.0f/s), answers by status %s, %d reservations granted,"
                    + " %d cancelled%n", requests, seconds, requests / seconds, STATUSES, account.granted().size(),
                    account.cancelled().size());
            Map<String, HotLedger> hot = drained();
            Books.Snapshot books = service.books().read(saleId);
            List<String> findings = new FuzzAudit(account, STOCK).findings(hot, books, auditedAdjustments());
            System.out.printf("[fuzz] after the drain: Redis %s, %d orders in MySQL%n", hot, books.orders().size());
            assertThat(findings).as("the books after the fuzzed run").isEmpty();
            if (fuzzing()) {
                // A run that maxDuration cut short (or a finding stopped) is not a complete CI run.
                assertThat(requests).as("fuzzed requests sent").isGreaterThanOrEqualTo(EXECUTIONS);
            }
        } finally {
            service.close();
        }
    }

    @FuzzTest(maxExecutions = EXECUTIONS, maxDuration = "12m")
    @Timeout(value = 14, unit = TimeUnit.MINUTES)
    void givenFuzzedRequests_whenSentToTheService_thenNoServerErrorAndNoPartialDeduction(FuzzedDataProvider data)
            throws Exception {
        if (firstRequestNanos == 0) {
            firstRequestNanos = System.nanoTime();
        }
        // Jazzer's SSRF detector would flag the harness's own sockets (the service is on the loopback); it forgets
        // this between the corpus replay and the fuzzing, so it is said on every input (one volatile write).
        BugDetectors.allowNetworkConnections((host, port) -> host.equals("localhost") || host.startsWith("127."));
        FuzzedRequest request = generator.next(data);
        Answer answer = wire.send(request);
        requests++;
        STATUSES.merge(answer.status(), 1, Integer::sum);
        AnswerRules.check(request, answer);
        account.settle(request, answer, service.available(saleId));
    }

    /** Jazzer's own switch: JAZZER_FUZZ in the environment or as a system property (the module's pom sets it). */
    private static boolean fuzzing() {
        String mode = System.getenv("JAZZER_FUZZ") != null ? System.getenv("JAZZER_FUZZ")
                : System.getProperty("JAZZER_FUZZ", "");
        return List.of("1", "true", "yes").contains(mode.toLowerCase(java.util.Locale.ROOT));
    }

    /** Waits until Redis holds nothing as reserved and two looks a second apart see the same books. */
    private static Map<String, HotLedger> drained() throws InterruptedException {
        long deadline = System.nanoTime() + DRAIN_PATIENCE.toNanos();
        String previous = null;
        while (System.nanoTime() < deadline) {
            Map<String, HotLedger> hot = service.ledgers(saleId);
            Books.Snapshot books = service.books().read(saleId);
            String look = hot + "/" + books.orders() + "/" + books.flows().size();
            boolean drained = hot.values().stream().allMatch(ledger -> ledger.reserved() == 0);
            if (drained && look.equals(previous)) {
                return hot;
            }
            previous = drained ? look : null;
            Thread.sleep(1_000);
        }
        return service.ledgers(saleId); // not drained in time: the audit shows what is still reserved
    }

    /** Per SKU, the deltas of every stock adjustment the service audited for the sale (the fuzzer's included). */
    private static Map<String, Long> auditedAdjustments() throws Exception {
        Answer answer = operator("GET", "/api/v1/activities/" + saleId + "/stock-adjustments", null);
        assertThat(answer.status()).as("the audited adjustments: %s", answer).isEqualTo(200);
        Map<String, Long> deltas = new LinkedHashMap<>();
        for (JsonNode adjustment : answer.json().path("adjustments")) {
            deltas.merge(adjustment.path("skuId").asString(), adjustment.path("delta").asLong(), Long::sum);
        }
        return deltas;
    }

    private static Answer operator(String method, String path, String json) throws Exception {
        List<Header> headers = json == null ? List.of(new Header("Authorization", "Bearer " + service.adminToken()))
                : List.of(new Header("Authorization", "Bearer " + service.adminToken()),
                new Header("Content-Type", "application/json"));
        return wire.send(new FuzzedRequest(method, path, headers,
                json == null ? null : json.getBytes(StandardCharsets.UTF_8), false, true));
    }
}
