package io.flashsale.adapter.outage;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationRequest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class RecentAnswersTest {

    private static final ActivityId SALE = new ActivityId("sale-1");
    private static final Instant NOW = Instant.parse("2026-12-01T11:00:00Z");

    private final AtomicLong clock = new AtomicLong();
    private final RecentAnswers answers = new RecentAnswers(Duration.ofSeconds(10), 3, clock::get);

    @Test
    void givenAnAnswer_whenTheSameBuyerSendsTheSameKey_thenItIsRecalledAndNoOtherRequestIs() {
        Reservation answered = request("alice", "k-1", "t1").toReservation();
        answers.remember(answered);

        assertThat(answers.recall(request("alice", "k-1", "t2"))).contains(answered);
        assertThat(answers.recall(request("bob", "k-1", "t3"))).isEmpty();
        assertThat(answers.recall(request("alice", "k-2", "t4"))).isEmpty();
    }

    @Test
    void givenGenerationsGoingBy_whenRemembering_thenTheLastTwoAreKeptAndOlderOnesDropped() {
        answers.remember(request("alice", "k-1", "t1").toReservation());
        clock.addAndGet(Duration.ofSeconds(11).toNanos());
        answers.remember(request("bob", "k-2", "t2").toReservation());

        assertThat(answers.recall(request("alice", "k-1", "x"))).as("the previous generation").isPresent();

        clock.addAndGet(Duration.ofSeconds(11).toNanos());
        answers.remember(request("carol", "k-3", "t3").toReservation());

        assertThat(answers.recall(request("alice", "k-1", "x"))).isEmpty();
        assertThat(answers.recall(request("bob", "k-2", "x"))).isPresent();
    }

    @Test
    void givenNothingRemembered_whenTimePasses_thenNothingIsDroppedForAsLongAsAnOutageLasts() {
        answers.remember(request("alice", "k-1", "t1").toReservation());
        clock.addAndGet(Duration.ofHours(1).toNanos());

        assertThat(answers.recall(request("alice", "k-1", "x"))).isPresent();
    }

    @Test
    void givenAFullGeneration_whenRemembering_thenItRotatesEarly() {
        for (int i = 0; i < 7; i++) {
            answers.remember(request("buyer-" + i, "k", "t" + i).toReservation());
        }

        assertThat(answers.recall(request("buyer-0", "k", "x"))).as("two generations of 3 back").isEmpty();
        assertThat(answers.recall(request("buyer-6", "k", "x"))).isPresent();
        assertThat(answers.recall(request("buyer-3", "k", "x"))).isPresent();
    }

    @Test
    void givenAnAttemptWithoutTheBuyersKey_whenRemembered_thenNothingIsKept() {
        answers.remember(request("alice", "t9", "t9").toReservation());

        assertThat(answers.isEmpty()).isTrue();
    }

    private static ReservationRequest request(String buyer, String key, String token) {
        return new ReservationRequest(ReservationId.of(SALE, token), new BuyerId(buyer), new RequestId(key),
                List.of(new ReservationLine(new SkuId("sku-1"), 1)), NOW);
    }
}
