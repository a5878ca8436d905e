package io.flashsale.bootstrap.pipeline;

import io.flashsale.application.order.port.in.ExpireUnpaidOrdersUseCase;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.ReservationStatus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.awaitility.Awaitility.await;

/**
 * The buyer's payment, the buyer's cancellation and the payment timeout reach one order at the same moment, over
 * HTTP and from an expiry pass of this test besides the service's own. Ten orders per round, each raced at its own
 * moment around its three-second deadline (before it, payment and cancellation race; after it, the expiry joins),
 * several rounds. Each order must end in exactly one final state that both answers agree on, with at most one
 * restore, and MySQL and Redis must agree.
 */
class LifecycleRaceIT extends PipelineTestBase {

    private static final int ORDERS = 10;
    /** A hot SKU: its stock split over four counters, restores going back to any of them. */
    private static final int SEGMENTS = 4;
    /**
     * Long enough that the orders are seen ordered before the earliest race moment on a loaded machine: with 1 s, a
     * JDK-only run at load average ~60 saw every order expire before its payment and cancellation arrived.
     */
    private static final Duration DEADLINE = Duration.ofSeconds(3);
    private static final Map<String, Long> OUTCOMES = new ConcurrentHashMap<>();

    @Autowired
    private ExpireUnpaidOrdersUseCase expiry;

    private final ScheduledExecutorService clock = Executors.newScheduledThreadPool(2);

    @AfterEach
    void stopClock() {
        clock.shutdownNow();
    }

    @AfterAll
    static void report() {
        System.out.printf("[lifecycle-race-it] final states over all rounds: %s%n", OUTCOMES);
    }

    @RepeatedTest(3)
    void givenPaymentCancellationAndExpiryAtOnce_whenTheyRace_thenEachOrderEndsOnceAndTheBooksAgree(
            RepetitionInfo round) {
        String activityId = api().openSale(ORDERS, DEADLINE.toSeconds(), SEGMENTS);
        Map<String, String> accepted = reserveOneEach(activityId, ORDERS);
        // The deadline counts from the buyer's answer, not from the order's placement (ADR 82).
        Map<String, Instant> reservedAt = reservedAtOnceOrdered(accepted);

        List<CompletableFuture<Race>> races = new ArrayList<>();
        int i = 0;
        for (Map.Entry<String, String> order : accepted.entrySet()) {
            // From 1 s before the deadline to 350 ms after it, 150 ms apart: the early ones are decided by payment
            // and cancellation even when a loaded machine delays each request by hundreds of milliseconds.
            Instant at = reservedAt.get(order.getKey()).plus(DEADLINE).plusMillis(150L * i++ - 1000);
            races.add(raceAt(at, order.getKey(), order.getValue()));
        }

        Map<ReservationStatus, Long> finals = new EnumMap<>(ReservationStatus.class);
        for (CompletableFuture<Race> race : races) {
            ReservationStatus status = race.join().settle();
            finals.merge(status, 1L, Long::sum);
            OUTCOMES.merge(status.name(), 1L, Long::sum);
        }
        System.out.printf("[lifecycle-race-it] round %d: %s%n", round.getCurrentRepetition(), finals);
        long paid = finals.getOrDefault(ReservationStatus.PAID, 0L);
        assertThat(finals.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(ORDERS);
        assertBooksAgree(activityId, finals, paid);
        if (round.getCurrentRepetition() == round.getTotalRepetitions()) {
            // One final state for all 30 orders would mean the three never met: the race would prove nothing.
            assertThat(OUTCOMES).as("final states over all rounds: the contenders really raced")
                    .hasSizeGreaterThanOrEqualTo(2);
        }
    }

    /** Payment, cancellation and an expiry pass, all let go at {@code at}. */
    private CompletableFuture<Race> raceAt(Instant at, String reservationId, String buyer) {
        long delay = Math.max(0, Duration.between(Instant.now(), at).toMillis());
        CompletableFuture<Race> started = new CompletableFuture<>();
        clock.schedule(() -> started.complete(new Race(reservationId, buyer,
                api().payAsync(reservationId, buyer),
                api().cancelAsync(reservationId, buyer),
                CompletableFuture.supplyAsync(() -> expiry.expireDue(ORDERS), clock))), delay, TimeUnit.MILLISECONDS);
        return started;
    }

    private Map<String, Instant> reservedAtOnceOrdered(Map<String, String> accepted) {
        return accepted.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, order -> {
            JsonNode read = await().atMost(WITHIN).pollInterval(Duration.ofMillis(50))
                    // Ordered, or already past that: the batched pipeline orders within moments, so on a loaded
                    // machine the deadline may have expired an order before this look; its race still runs.
                    .until(() -> reservation(order.getKey(), order.getValue()),
                            reservation -> reservation.path("statusTimes").hasNonNull("orderedAt"));
            return Instant.parse(read.path("statusTimes").path("reservedAt").asString());
        }));
    }

    private void assertBooksAgree(String activityId, Map<ReservationStatus, Long> finals, long paid) {
        ActivityId activity = new ActivityId(activityId);
        SkuId sku = new SkuId(SKU);
        assertThat(figures.orderCountByStatus(activity)).isEqualTo(finals);
        await().atMost(WITHIN).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
            assertThat(figures.soldBySku(activity)).as("MySQL sold").containsExactly(entry(sku, paid));
            assertThat(figures.stockFlowBySku(activity)).as("stock flow").containsExactly(entry(sku, paid));
            assertThat(figures.orderedUnitsBySku(activity)).as("units of paid orders").containsExactly(entry(sku, paid));
            var redis = redisLedger(activityId).ledger();
            assertThat(redis.sold()).as("Redis sold").isEqualTo(paid);
            assertThat(redis.reserved()).as("Redis reserved").isZero();
            assertThat(redis.available()).as("Redis available").isEqualTo(ORDERS - paid);
        });
    }

    /** One order's three racers; {@link #settle} checks what they answered against the order's final state. */
    private final class Race {

        private final String reservationId;
        private final String buyer;
        private final CompletableFuture<ServiceClient.Reply> payment;
        private final CompletableFuture<ServiceClient.Reply> cancellation;
        private final CompletableFuture<Integer> expiryPass;

        Race(String reservationId, String buyer, CompletableFuture<ServiceClient.Reply> payment,
             CompletableFuture<ServiceClient.Reply> cancellation, CompletableFuture<Integer> expiryPass) {
            this.reservationId = reservationId;
            this.buyer = buyer;
            this.payment = payment;
            this.cancellation = cancellation;
            this.expiryPass = expiryPass;
        }

        ReservationStatus settle() {
            ServiceClient.Reply paid = payment.join();
            ServiceClient.Reply cancelled = cancellation.join();
            expiryPass.join();
            JsonNode read = reservation(reservationId, buyer);
            ReservationStatus status = ReservationStatus.valueOf(read.path("status").asString());
            String context = reservationId + " paid=" + paid.body() + " cancelled=" + cancelled.body();
            switch (status) {
                case PAID -> {
                    assertAnswer(paid, 200, null, "PAID", context);
                    assertAnswer(cancelled, 409, "NOT_CANCELLABLE", "PAID", context);
                    assertThat(restoreRows(reservationId)).as(context).isZero();
                }
                case CANCELLED -> {
                    assertAnswer(cancelled, 200, null, "CANCELLED", context);
                    // A payment past the deadline is told EXPIRED even before the expiry pass ran (ADR 21); a
                    // cancellation that still found the order ORDERED then wins. Either way the payment lost.
                    assertAnswer(paid, 409, "NOT_PAYABLE",
                            "EXPIRED".equals(paid.json().path("reservationStatus").asString()) ? "EXPIRED" : "CANCELLED",
                            context);
                    assertThat(restoreRows(reservationId)).as(context).isOne();
                }
                case EXPIRED -> {
                    assertAnswer(paid, 409, "NOT_PAYABLE", "EXPIRED", context);
                    assertAnswer(cancelled, 409, "NOT_CANCELLABLE", "EXPIRED", context);
                    assertThat(restoreRows(reservationId)).as(context).isOne();
                }
                default -> throw new AssertionError("not a final state after the race: " + context + " " + read);
            }
            return status;
        }

        private static void assertAnswer(ServiceClient.Reply reply, int httpStatus, String code, String status,
                                         String context) {
            assertThat(reply.status()).as(context).isEqualTo(httpStatus);
            if (code == null) {
                assertThat(reply.json().path("status").asString()).as(context).isEqualTo(status);
            } else {
                assertThat(reply.json().path("code").asString()).as(context).isEqualTo(code);
                assertThat(reply.json().path("reservationStatus").asString()).as(context).isEqualTo(status);
            }
        }
    }
}
