package io.flashsale.acceptance.steps;

import io.flashsale.acceptance.api.ApiAnswer;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A buyer looking up their own reservation, once or until it reaches a status, and reading its times. */
final class ReservationLookups {

    /** Bounds how long a scenario waits for a reservation to become an order. */
    static final Duration ORDER_PATIENCE = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(50);

    private ReservationLookups() {
    }

    static ApiAnswer lookUp(SaleWorld world, String buyerId, String reservationId) {
        ApiAnswer shown = world.api().send(world.api().reservation(buyerId, reservationId));
        assertThat(shown.status()).as("the buyer looking up the reservation: %s", shown.describe()).isEqualTo(200);
        assertThat(shown.text("reservationId")).as("the reservation shown").isEqualTo(reservationId);
        return shown;
    }

    /** Looks again and again (in this thread: the glue is thread-bound) until the buyer sees the status. */
    static ApiAnswer awaitStatus(SaleWorld world, String buyerId, String reservationId, String status,
                                 Duration patience) {
        AtomicReference<ApiAnswer> last = new AtomicReference<>();
        await("reservation " + reservationId + " shown as " + status).atMost(patience).pollInterval(POLL)
                .pollInSameThread().untilAsserted(() -> {
                    ApiAnswer shown = lookUp(world, buyerId, reservationId);
                    last.set(shown);
                    assertThat(shown.text("status")).as("status: %s", shown.describe()).isEqualTo(status);
                });
        return last.get();
    }

    /** When the reservation reached a status, e.g. {@code time(view, "paidAt")}; empty if it never did. */
    static Optional<Instant> time(ApiAnswer shown, String field) {
        String value = shown.json().path("statusTimes").path(field).asString("");
        return value.isEmpty() ? Optional.empty() : Optional.of(Instant.parse(value));
    }

    static Instant requiredTime(ApiAnswer shown, String field) {
        return time(shown, field).orElseThrow(() -> new AssertionError(
                "no statusTimes." + field + " in " + shown.describe()));
    }

    static boolean namesAnOrder(ApiAnswer shown) {
        return !shown.text("orderId").isBlank();
    }
}
