package io.flashsale.bootstrap.pipeline;

import io.flashsale.adapter.web.security.NotificationSignature;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.ReservationStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The payment provider's notifications over HTTP with the whole pipeline running: only a signed one pays, each
 * payment once however often it is delivered, and a payment that cannot pay the order is answered with its own code
 * and kept in {@code payment_conflicts} for the refund.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class PaymentNotificationIT extends PipelineTestBase {

    private static final String PATH = "/api/v1/payments/notifications";
    private static final Duration POLL = Duration.ofMillis(100);
    private static final NotificationSignature PROVIDER =
            new NotificationSignature(NOTIFICATION_SECRET, Duration.ofMinutes(5), Clock.systemUTC());

    @Test
    void givenAnOrder_whenTheProviderNotifiesWithAValidSignature_thenItIsPaidUnderTheReference() {
        String activityId = openSale(3);
        String id = orderedReservation(activityId, "provider-payer");
        String reference = reference();
        String body = notification(id, reference);

        ServiceClient.Reply paid = notify(body, signed(body));

        assertThat(paid.status()).as(paid.body()).isEqualTo(200);
        JsonNode answer = paid.json();
        assertThat(answer.path("reservationId").asString()).isEqualTo(id);
        assertThat(answer.path("paymentReference").asString()).isEqualTo(reference);
        assertThat(answer.path("status").asString()).isEqualTo("PAID");
        assertThat(reservation(id, "provider-payer").path("status").asString()).isEqualTo("PAID");
        assertThat(reservation(id, "provider-payer").path("statusTimes").path("paidAt").asString())
                .isEqualTo(answer.path("paidAt").asString());
        assertThat(storedReference(id)).isEqualTo(reference);
        assertThat(figures.orderCountByStatus(new ActivityId(activityId))).containsEntry(ReservationStatus.PAID, 1L);
    }

    @Test
    void givenAMissingBadOrStaleSignature_whenNotified_then401AndNothingChanges() {
        String activityId = openSale(3);
        String id = orderedReservation(activityId, "unsigned-payer");
        String body = notification(id, reference());
        long now = Instant.now().getEpochSecond();
        String otherKey = new NotificationSignature("not-the-secret", Duration.ofMinutes(5), Clock.systemUTC())
                .header(now, body.getBytes(UTF_8));

        List<ServiceClient.Reply> refused = List.of(
                send("POST", PATH, body),
                notify(body, "t=" + now + ",v1=00"),
                notify(body, otherKey),
                notify(body, PROVIDER.header(now - 301, body.getBytes(UTF_8))),
                notify(body, PROVIDER.header(now + 301, body.getBytes(UTF_8))),
                notify(body.replace("\"}", "\" }"), signed(body)));

        for (ServiceClient.Reply reply : refused) {
            assertThat(reply.status()).as(reply.body()).isEqualTo(401);
            assertThat(reply.json().path("code").asString()).isEqualTo("SIGNATURE_INVALID");
        }
        assertThat(reservation(id, "unsigned-payer").path("status").asString()).isEqualTo("ORDERED");
        assertThat(storedReference(id)).isNull();
        assertThat(conflicts(id)).isEmpty();
    }

    @Test
    void givenTwentyConcurrentDeliveriesOfOnePayment_thenOnePaidTransitionAndTwentyIdenticalAnswers() {
        String activityId = openSale(3);
        String id = orderedReservation(activityId, "raced-payer");
        String body = notification(id, reference());
        String signature = signed(body);

        List<CompletableFuture<ServiceClient.Reply>> deliveries = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            deliveries.add(api().sendAsync("POST", PATH, body,
                    NotificationSignature.HEADER, signature));
        }
        List<ServiceClient.Reply> answers = deliveries.stream().map(CompletableFuture::join).toList();

        assertThat(answers).allSatisfy(reply -> assertThat(reply.status()).as(reply.body()).isEqualTo(200));
        assertThat(answers.stream().map(ServiceClient.Reply::body).distinct()).as("the same answer").hasSize(1);
        assertThat(figures.orderCountByStatus(new ActivityId(activityId)))
                .containsExactlyInAnyOrderEntriesOf(Map.of(ReservationStatus.PAID, 1L));
        assertThat(paidTransitions(id)).as("paid_at written once").isOne();
        assertThat(conflicts(id)).isEmpty();
    }

    @Test
    void givenAPaidOrder_whenASecondPaymentIsNotified_then409ConflictRecordedAndPaidOnce() {
        String activityId = openSale(3);
        String id = orderedReservation(activityId, "twice-payer");
        String first = notification(id, reference());
        assertThat(notify(first, signed(first)).status()).isEqualTo(200);
        String paidAt = reservation(id, "twice-payer").path("statusTimes").path("paidAt").asString();
        String secondReference = reference();
        String second = notification(id, secondReference);

        ServiceClient.Reply conflict = notify(second, signed(second));
        ServiceClient.Reply again = notify(second, signed(second));

        assertProblem(conflict, 409, "PAYMENT_CONFLICT", "PAID");
        assertProblem(again, 409, "PAYMENT_CONFLICT", "PAID");
        JsonNode read = reservation(id, "twice-payer");
        assertThat(read.path("status").asString()).isEqualTo("PAID");
        assertThat(read.path("statusTimes").path("paidAt").asString()).as("paid once").isEqualTo(paidAt);
        assertThat(conflicts(id)).containsExactly(Map.of("payment_reference", secondReference, "reason", "CONFLICT",
                "order_status", "PAID", "deliveries", 2));
        assertThat(notify(first, signed(first)).status()).as("the first payment still answers 200").isEqualTo(200);
    }

    @Test
    void givenAnOrderPastItsPaymentDeadline_whenNotified_thenRefusedAndRecordedForTheRefund() {
        String activityId = api().openSale(2, 1L);
        String id = orderedReservation(activityId, "late-payer");
        await().atMost(WITHIN).pollInterval(POLL).until(() -> reservation(id, "late-payer").path("status").asString(),
                "EXPIRED"::equals);
        String reference = reference();
        String body = notification(id, reference);

        ServiceClient.Reply late = notify(body, signed(body));

        assertProblem(late, 409, "PAYMENT_REFUSED", "EXPIRED");
        assertThat(reservation(id, "late-payer").path("status").asString()).isEqualTo("EXPIRED");
        assertThat(storedReference(id)).isNull();
        assertThat(conflicts(id)).containsExactly(Map.of("payment_reference", reference, "reason", "NOT_PAYABLE",
                "order_status", "EXPIRED", "deliveries", 1));
    }

    @Test
    void givenBuyersMayConfirmInThisContext_whenTheBuyerPays_thenItIsPaidWithoutAReference() {
        String activityId = openSale(3);
        String id = orderedReservation(activityId, "self-payer");

        ServiceClient.Reply paid = api().pay(id, "self-payer");

        assertThat(paid.status()).as(paid.body()).isEqualTo(200);
        assertThat(paid.json().path("status").asString()).isEqualTo("PAID");
        assertThat(storedReference(id)).isNull();
    }

    // ---- helpers ----

    private String orderedReservation(String activityId, String buyer) {
        ServiceClient.Reply reply = reserveAsync(activityId, buyer).join();
        assertThat(reply.status()).as(reply.body()).isEqualTo(202);
        String id = reply.json().path("reservationId").asString();
        await().atMost(WITHIN).pollInterval(POLL).until(() -> reservation(id, buyer).path("status").asString(),
                "ORDERED"::equals);
        return id;
    }

    private static String reference() {
        return "pay_" + UUID.randomUUID().toString().replace("-", "");
    }

    private static String notification(String reservationId, String reference) {
        return "{\"reservationId\":\"" + reservationId + "\",\"paymentReference\":\"" + reference
                + "\",\"paidAt\":\"" + Instant.now().minusSeconds(1) + "\"}";
    }

    private static String signed(String body) {
        return PROVIDER.header(Instant.now().getEpochSecond(), body.getBytes(UTF_8));
    }

    private ServiceClient.Reply notify(String body, String signature) {
        return send("POST", PATH, body, NotificationSignature.HEADER, signature);
    }

    private static void assertProblem(ServiceClient.Reply reply, int status, String code, String reservationStatus) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(status);
        assertThat(reply.json().path("code").asString()).isEqualTo(code);
        assertThat(reply.json().path("reservationStatus").asString()).isEqualTo(reservationStatus);
    }

    private String storedReference(String reservationId) {
        return jdbc().queryForObject("SELECT payment_reference FROM purchase_order WHERE reservation_id = ?",
                String.class, reservationId);
    }

    /** Rows whose paid_at is set: one conditional move wrote it, or it would differ between the answers. */
    private long paidTransitions(String reservationId) {
        return jdbc().queryForObject("SELECT COUNT(*) FROM purchase_order WHERE reservation_id = ? AND paid_at IS NOT NULL",
                Long.class, reservationId);
    }

    private List<Map<String, Object>> conflicts(String reservationId) {
        return jdbc().queryForList("SELECT payment_reference, reason, order_status, deliveries FROM payment_conflicts"
                + " WHERE reservation_id = ? ORDER BY first_received_at", reservationId);
    }

    private JdbcTemplate jdbc() {
        return new JdbcTemplate(database);
    }
}
