package io.flashsale.bootstrap.api;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.annotation.Import;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The read of a sale at steady state: the crowd polling a sale, or an id that does not exist, costs the database a
 * handful of statements however many requests come (counted at the service's DataSource on its request threads);
 * each answer carries a strong tag of its body, and a poll with the current tag is answered 304 without a body.
 */
@Timeout(120)
@Import(RequestStatements.Counting.class)
class ActivityReadsIT extends ApiTestBase {

    private static final int READS = 2_000;
    /** One cold read of a sale is three statements (the sale, its items, its archive mark). */
    private static final long COLD_SALE = 3;
    /** One read of an unknown id is one statement. */
    private static final long COLD_UNKNOWN = 1;
    /** The service's defaults: how long a sale and an unknown id are remembered. */
    private static final Duration SALE_TTL = Duration.ofSeconds(10);
    private static final Duration UNKNOWN_TTL = Duration.ofSeconds(2);

    /**
     * A cold read's statements once per memory's lifetime while the reads run (a slow machine may take longer than
     * one lifetime for them all), and a little room besides.
     */
    private static long handful(long cold, Duration ttl, long startedNanos) {
        long lifetimes = 1 + (System.nanoTime() - startedNanos) / ttl.toNanos();
        return cold * lifetimes + 2;
    }

    @Test
    void givenAWarmedUpSale_whenReadTwoThousandTimes_thenTheDatabaseSeesAHandfulOfStatements() {
        String id = openSale(1, item("sku-a", 10));
        long before = RequestStatements.executed();
        long started = System.nanoTime();

        for (int i = 0; i < READS; i++) {
            Reply read = get("/api/v1/activities/" + id);
            assertThat(read.status()).as(read.body()).isEqualTo(200);
        }

        System.out.printf("[reads] %d reads of a warmed-up sale: %d statements%n", READS,
                RequestStatements.executed() - before);
        assertThat(RequestStatements.executed() - before).as("statements for %d reads", READS)
                .isBetween(0L, handful(COLD_SALE, SALE_TTL, started));
    }

    @Test
    void givenAnUnknownId_whenReadTwoThousandTimes_thenEachIs404AndTheDatabaseSeesAHandfulOfStatements() {
        String unknown = newId();
        long before = RequestStatements.executed();
        long started = System.nanoTime();

        for (int i = 0; i < READS; i++) {
            assertProblem(get("/api/v1/activities/" + unknown), 404, "ACTIVITY_NOT_FOUND");
        }

        System.out.printf("[reads] %d reads of an unknown id: %d statements%n", READS,
                RequestStatements.executed() - before);
        assertThat(RequestStatements.executed() - before).as("statements for %d reads", READS)
                .isBetween(1L, handful(COLD_UNKNOWN, UNKNOWN_TTL, started));
    }

    /** The counter itself: an admin's list reads the database on a request thread every time. */
    @Test
    void givenAReadThatAlwaysQueries_thenTheCounterSeesIt() {
        long before = RequestStatements.executed();

        assertThat(asAdmin("GET", "/api/v1/activities", null).status()).isEqualTo(200);

        assertThat(RequestStatements.executed() - before).isPositive();
    }

    @Test
    void givenAnIdReadAsUnknown_whenTheSaleIsCreated_thenTheNextReadFindsIt() {
        String id = newId();
        assertProblem(get("/api/v1/activities/" + id), 404, "ACTIVITY_NOT_FOUND");

        Reply created = createActivity(activityJson(id, now(), now().plusSeconds(60), 1, item("sku-a", 3)));

        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(get("/api/v1/activities/" + id).status()).isEqualTo(200);
    }

    @Test
    void givenAReadSale_whenItsStockIsAdjusted_thenTheNextReadShowsTheNewStock() {
        String id = openSale(1, item("sku-a", 10));
        assertThat(get("/api/v1/activities/" + id).json().path("items").get(0).path("stock").asLong()).isEqualTo(10);

        Reply adjusted = proposeAndApprove(id, "{\"skuId\":\"sku-a\",\"delta\":5,\"reason\":\"five more\"}");

        assertThat(adjusted.status()).as(adjusted.body()).isEqualTo(200);
        var item = get("/api/v1/activities/" + id).json().path("items").get(0);
        assertThat(item.path("stock").asLong()).isEqualTo(15);
        assertThat(item.path("available").asLong()).isEqualTo(15);
    }

    @Test
    void givenASaleRead_whenPolledWithItsTag_then304WithoutABodyUntilItChanges() {
        String id = openSale(2, item("sku-a", 10));
        Reply first = get("/api/v1/activities/" + id);
        String tag = first.header("ETag");
        assertThat(tag).as("a strong tag").matches("\"[A-Za-z0-9_-]+\"");
        assertThat(first.header("Cache-Control")).isEqualTo("no-cache");
        assertThat(get("/api/v1/activities/" + id).header("ETag")).as("same body, same tag").isEqualTo(tag);

        Reply unchanged = get("/api/v1/activities/" + id, "If-None-Match", tag);

        assertThat(unchanged.status()).isEqualTo(304);
        assertThat(unchanged.body()).isEmpty();
        assertThat(unchanged.header("ETag")).isEqualTo(tag);

        assertThat(reserve(id, "alice", lines(null, line("sku-a", 1))).status()).isEqualTo(202);
        Reply changed = get("/api/v1/activities/" + id, "If-None-Match", tag);

        assertThat(changed.status()).isEqualTo(200);
        assertThat(changed.json().path("items").get(0).path("available").asLong()).isEqualTo(9);
        assertThat(changed.header("ETag")).isNotEqualTo(tag);
        assertThat(get("/api/v1/activities/" + id, "If-None-Match", "\"someone-elses\"").status()).isEqualTo(200);
    }
}
