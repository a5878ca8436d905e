package io.flashsale.bootstrap.api;

import io.flashsale.adapter.redis.RedisKeys;
import io.flashsale.bootstrap.config.OutboxRegistryProperties;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.bootstrap.testing.TestRedis;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code POST /api/v1/activities/{id}/archive}. The outbox relay is off in this context, so reservations stay
 * RESERVED and cancelled ones are never recorded by the order pipeline: both keep a sale from being archived.
 */
class ArchiveApiIT extends ApiTestBase {

    private final StatefulRedisConnection<String, String> redis = TestRedis.connection();
    @Autowired
    private OutboxRegistryProperties registry;

    @Test
    void givenNoAdminToken_whenArchiving_then401AndNothingHappens() {
        String id = endedSale(true);

        assertProblem(post("/api/v1/activities/" + id + "/archive", ""), 401, "UNAUTHORIZED");
        assertProblem(post("/api/v1/activities/" + id + "/archive", "", "Authorization", "Bearer wrong"), 401,
                "UNAUTHORIZED");
        assertThat(redisKeysOf(id)).isPositive();
    }

    @Test
    void givenNoSuchSale_whenArchived_then404ActivityNotFound() {
        assertProblem(archive(newId()), 404, "ACTIVITY_NOT_FOUND");
        assertProblem(archive("bad%E2%9C%93id"), 404, "ACTIVITY_NOT_FOUND");
    }

    @Test
    void givenASaleThatIsOpenOrNotStarted_whenArchived_then409ActivityNotEndedWithTheEnd() {
        Instant endsAt = now().plusSeconds(3600);
        String open = newId();
        createActivity(activityJson(open, now().minusSeconds(60), endsAt, 1, item("sku-a", 10)));
        asAdmin("POST", "/api/v1/activities/" + open + "/warm-up", null);
        String future = newId();
        createActivity(activityJson(future, endsAt, endsAt.plusSeconds(60), 1, item("sku-a", 10)));

        Reply openRefused = archive(open);
        Reply futureRefused = archive(future);

        assertProblem(openRefused, 409, "ACTIVITY_NOT_ENDED");
        assertThat(Instant.parse(openRefused.json().path("endsAt").asString())).isEqualTo(endsAt);
        assertProblem(futureRefused, 409, "ACTIVITY_NOT_ENDED");
        assertThat(ledger(open, "sku-a")).containsExactly(10, 0, 0);
    }

    @Test
    void givenAnEndedSaleWithAReservationStillReservedOrCancelledButUnrecorded_whenArchived_then409ReservationsPending()
            throws InterruptedException {
        Instant endsAt = now().plusSeconds(2);
        String id = newId();
        createActivity(activityJson(id, now().minusSeconds(60), endsAt, 1, item("sku-a", 10)));
        asAdmin("POST", "/api/v1/activities/" + id + "/warm-up", null);
        Reply reserved = reserve(id, "alice", lines(null, line("sku-a", 1)));
        assertThat(reserved.status()).as(reserved.body()).isEqualTo(202);
        String reservationId = reserved.json().path("reservationId").asString();
        Thread.sleep(Math.max(0, Duration.between(Instant.now(), endsAt).toMillis() + 100));

        Reply stillReserved = archive(id);
        Reply cancelled = post("/api/v1/reservations/" + reservationId + "/cancellation", "", buyerHeader(),
                signedIn("alice"));
        Reply unrecorded = archive(id);

        assertProblem(stillReserved, 409, "RESERVATIONS_PENDING");
        assertThat(stillReserved.json().path("pending").asString()).isEqualTo("STILL_RESERVED");
        assertThat(stillReserved.json().path("reservations").asLong()).isOne();
        assertThat(stillReserved.json().path("detail").asString()).contains("RESERVED");
        assertThat(stillReserved.header("Retry-After")).isEqualTo("5");
        assertThat(cancelled.status()).as(cancelled.body()).isEqualTo(200);
        assertProblem(unrecorded, 409, "RESERVATIONS_PENDING");
        assertThat(unrecorded.json().path("pending").asString()).isEqualTo("CANCELLATIONS_UNSETTLED");
        assertThat(unrecorded.json().path("reservations").asLong()).isOne();
        assertThat(unrecorded.header("Retry-After")).isEqualTo("5");
        assertThat(ledger(id, "sku-a")).as("still in Redis").containsExactly(10, 0, 0);
    }

    @Test
    void givenAnEndedSaleWithNothingInFlight_whenArchivedTwice_thenRedisIsClearedOnceAndTheSaleIsReadFromMysql() {
        String id = endedSale(true);
        assertThat(redisKeysOf(id)).isPositive();
        assertThat(redis.sync().sismember(registry.outboxRegistry(), id)).isTrue();

        Reply archived = archive(id);
        Reply again = archive(id);

        assertThat(archived.status()).as(archived.body()).isEqualTo(200);
        assertThat(archived.json().path("activityId").asString()).isEqualTo(id);
        Instant archivedAt = Instant.parse(archived.json().path("archivedAt").asString());
        assertThat(archivedAt).isBetween(Instant.now().minusSeconds(10), Instant.now().plusSeconds(1));
        assertThat(again.status()).as(again.body()).isEqualTo(200);
        assertThat(Instant.parse(again.json().path("archivedAt").asString())).isEqualTo(archivedAt);
        assertThat(redisKeysOf(id)).isZero();
        assertThat(redis.sync().sismember(registry.outboxRegistry(), id)).isFalse();
        JsonNode sale = get("/api/v1/activities/" + id).json();
        assertThat(sale.path("id").asString()).isEqualTo(id);
        assertThat(sale.path("items").get(0).path("available").asLong()).isEqualTo(10);
        assertThat(ledger(id, "sku-a")).as("the ledger on record").containsExactly(10, 0, 0);
    }

    @Test
    void givenAnArchivedSale_whenWarmedUpAgain_then409ActivityArchivedAndRedisStaysEmpty() {
        String id = endedSale(false);
        assertThat(archive(id).status()).isEqualTo(200);

        Reply warmUp = asAdmin("POST", "/api/v1/activities/" + id + "/warm-up", null);

        assertProblem(warmUp, 409, "ACTIVITY_ARCHIVED");
        assertThat(warmUp.json().path("activityId").asString()).isEqualTo(id);
        assertThat(redisKeysOf(id)).isZero();
    }

    /** A sale that ended a minute ago, with 10 units of sku-a and no reservation; warmed up or never loaded. */
    private String endedSale(boolean warmedUp) {
        String id = newId();
        Reply created = createActivity(activityJson(id, now().minusSeconds(3600), now().minusSeconds(60), 1,
                item("sku-a", 10)));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        if (warmedUp) {
            assertThat(asAdmin("POST", "/api/v1/activities/" + id + "/warm-up", null).status()).isEqualTo(200);
        }
        return id;
    }

    private Reply archive(String activityId) {
        return asAdmin("POST", "/api/v1/activities/" + activityId + "/archive", null);
    }

    private long redisKeysOf(String activityId) {
        return redis.sync().exists(RedisKeys.activityKeys(new ActivityId(activityId)).toArray(String[]::new));
    }
}
