package io.flashsale.bootstrap.api;

import io.flashsale.adapter.kafka.ReservationMessageCodec;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.core.KafkaTemplate;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The admin's view of the dead-letter topic. The outbox relay is off in this context, so the tests put events
 * on the topics themselves: a malformed one (dead-lettered at its first attempt) and one written straight to the
 * dead-letter topic, as the consumer's error handler does after its last attempt.
 */
class DeadLetterApiIT extends ApiTestBase {

    private static final Duration WITHIN = Duration.ofSeconds(30);
    private static final String DEAD_LETTERS = "/api/v1/admin/dead-letters";

    @Autowired
    private KafkaTemplate<String, String> kafka;

    private final ReservationMessageCodec codec = new ReservationMessageCodec();

    @Test
    void givenNoAdminToken_whenListingOrReplaying_then401() {
        assertProblem(get(DEAD_LETTERS), 401, "UNAUTHORIZED");
        assertProblem(post(DEAD_LETTERS + "/0-0/replay", ""), 401, "UNAUTHORIZED");
        assertProblem(get(DEAD_LETTERS, "Authorization", "Bearer wrong"), 401, "UNAUTHORIZED");
    }

    @Test
    void givenAnUnreadableEvent_whenConsumed_thenItIsListedWithItsErrorAndCounted() throws Exception {
        double countedBefore = deadLetteredCount();
        String key = newId() + ".0123abcd";
        String payload = "{\"not\":\"a reservation " + UUID.randomUUID() + "\"}";
        Instant sentAt = Instant.now().minusSeconds(1);

        kafka.send(TOPIC, key, payload).get(10, TimeUnit.SECONDS);

        JsonNode letter = awaitDeadLetterOf(key);
        assertThat(letter.path("payload").asString()).isEqualTo(payload);
        assertThat(letter.path("error").asString()).isNotBlank();
        assertThat(letter.path("id").asString()).matches("\\d+-\\d+");
        assertThat(Instant.parse(letter.path("failedAt").asString())).isBetween(sentAt, Instant.now().plusSeconds(1));
        await().atMost(WITHIN).until(() -> deadLetteredCount() >= countedBefore + 1);
    }

    @Test
    void givenADeadLetteredReservation_whenReplayed_then202AndItBecomesExactlyOneOrder() throws Exception {
        String activityId = openSale(1, item("sku-a", 5));
        Reply reserved = reserve(activityId, "alice", lines("req-1", line("sku-a", 1)));
        String reservationId = reserved.json().path("reservationId").asString();
        Reservation reservation = new Reservation(new ReservationId(reservationId), new ActivityId(activityId),
                new BuyerId("alice"), new RequestId("req-1"), List.of(new ReservationLine(new SkuId("sku-a"), 1)),
                ReservationStatus.RESERVED, Instant.parse(readReservation(reservationId).path("reservedAt").asString()));
        kafka.send(TOPIC + ".DLT", reservationId, codec.encode(reservation)).get(10, TimeUnit.SECONDS);
        String deadLetterId = awaitDeadLetterOf(reservationId).path("id").asString();

        Reply replayed = asAdmin("POST", DEAD_LETTERS + "/" + deadLetterId + "/replay", null);
        Reply replayedAgain = asAdmin("POST", DEAD_LETTERS + "/" + deadLetterId + "/replay", null);

        assertThat(replayed.status()).as(replayed.body()).isEqualTo(202);
        assertThat(replayedAgain.status()).as(replayedAgain.body()).isEqualTo(202);
        await().atMost(WITHIN).until(() -> readReservation(reservationId).path("status").asString().equals("ORDERED"));
        JsonNode ordered = readReservation(reservationId);
        assertThat(ordered.path("orderId").asString()).isEqualTo(reservationId);
        assertThat(ordered.has("failureReason")).isFalse();
        assertThat(ledger(activityId, "sku-a")).containsExactly(4, 0, 1);
    }

    @Test
    void givenAnIdThatNamesNoDeadLetter_whenReplayed_then404DeadLetterNotFound() {
        for (String id : List.of("0-999999999", "999-0", "not-an-id", "1-2-3", "%27%20OR%201=1")) {
            assertProblem(asAdmin("POST", DEAD_LETTERS + "/" + id + "/replay", null), 404, "DEAD_LETTER_NOT_FOUND");
        }
    }

    @Test
    void givenALimitOutOfRange_whenListing_then400Validation() {
        for (String limit : List.of("0", "1001", "-1")) {
            Reply refused = asAdmin("GET", DEAD_LETTERS + "?limit=" + limit, null);
            assertProblem(refused, 400, "VALIDATION");
            assertThat(refused.json().path("errors").get(0).path("field").asString()).isEqualTo("limit");
        }
        assertProblem(asAdmin("GET", DEAD_LETTERS + "?limit=ten", null), 400, "VALIDATION");
    }

    private JsonNode readReservation(String reservationId) {
        Reply read = get("/api/v1/reservations/" + reservationId, buyerHeader(), signedIn("alice"));
        assertThat(read.status()).as(read.body()).isEqualTo(200);
        return read.json();
    }

    private JsonNode awaitDeadLetterOf(String reservationId) {
        return await().atMost(WITHIN).until(() -> deadLetterOf(reservationId), Optional::isPresent).orElseThrow();
    }

    private Optional<JsonNode> deadLetterOf(String reservationId) {
        Reply listed = asAdmin("GET", DEAD_LETTERS + "?limit=1000", null);
        assertThat(listed.status()).as(listed.body()).isEqualTo(200);
        for (JsonNode letter : listed.json().path("deadLetters")) {
            if (reservationId.equals(letter.path("reservationId").asString())) {
                return Optional.of(letter);
            }
        }
        return Optional.empty();
    }

    private double deadLetteredCount() {
        Reply metric = operator("/actuator/metrics/flashsale.orders.dead_lettered");
        assertThat(metric.status()).as(metric.body()).isEqualTo(200);
        return metric.json().path("measurements").get(0).path("value").asDouble();
    }
}
