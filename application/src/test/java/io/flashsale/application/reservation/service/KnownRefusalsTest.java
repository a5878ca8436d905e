package io.flashsale.application.reservation.service;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KnownRefusalsTest {

    private static final ActivityId SALE = new ActivityId("sale");
    private static final ActivityId OTHER_SALE = new ActivityId("other-sale");
    private static final SkuId PHONE = new SkuId("phone");
    private static final SkuId CASE = new SkuId("case");
    private static final Instant NOW = Instant.parse("2030-01-01T10:00:00Z");
    private static final Duration MEMORY = Duration.ofSeconds(1);

    private final KnownRefusals known = KnownRefusals.remembering(MEMORY, Duration.ofMillis(100));

    private static List<ReservationLine> lines(SkuId... skus) {
        return java.util.Arrays.stream(skus).map(sku -> new ReservationLine(sku, 1)).toList();
    }

    @Test
    void givenASoldOutAnswer_whenTheSkuIsAskedAgain_thenTheAnswerIsKnownHere() {
        known.learn(SALE, known.ticket(), new ReservationOutcome.SoldOut(PHONE), NOW);

        assertThat(known.answer(SALE, lines(PHONE), NOW.plusMillis(999))).contains(new ReservationOutcome.SoldOut(PHONE));
        assertThat(known.answer(SALE, lines(CASE), NOW)).isEmpty();
        assertThat(known.answer(OTHER_SALE, lines(PHONE), NOW)).isEmpty();
    }

    @Test
    void givenASoldOutSku_whenAMultiSkuAttemptHasItOnAnyLine_thenThatLineRefusesIt() {
        known.learn(SALE, known.ticket(), new ReservationOutcome.SoldOut(PHONE), NOW);

        assertThat(known.answer(SALE, lines(CASE, PHONE), NOW)).contains(new ReservationOutcome.SoldOut(PHONE));
    }

    @Test
    void givenARememberedRefusal_whenItsMemoryRunsOut_thenTheStoreIsAskedAgain() {
        known.learn(SALE, known.ticket(), new ReservationOutcome.SoldOut(PHONE), NOW);
        known.learn(OTHER_SALE, known.ticket(), new ReservationOutcome.Ended(NOW), NOW);

        assertThat(known.answer(SALE, lines(PHONE), NOW.plus(MEMORY))).isEmpty();
        assertThat(known.answer(OTHER_SALE, lines(PHONE), NOW.plus(MEMORY))).isEmpty();
    }

    @Test
    void givenAReturnOfUnits_whenTheSkuIsAskedAgain_thenNothingIsKnownAboutThatSale() {
        known.learn(SALE, known.ticket(), new ReservationOutcome.SoldOut(PHONE), NOW);
        known.learn(OTHER_SALE, known.ticket(), new ReservationOutcome.SoldOut(PHONE), NOW);

        known.returned(SALE);

        assertThat(known.answer(SALE, lines(PHONE), NOW)).isEmpty();
        assertThat(known.answer(OTHER_SALE, lines(PHONE), NOW)).contains(new ReservationOutcome.SoldOut(PHONE));
    }

    @Test
    void givenASoldOutSaleThatIsPausedOrItsWindowMoved_whenAskedAgain_thenTheStoreAnswers() {
        known.learn(SALE, known.ticket(), new ReservationOutcome.SoldOut(PHONE), NOW);
        known.learn(OTHER_SALE, known.ticket(), new ReservationOutcome.Ended(NOW), NOW);

        known.changed(SALE);
        known.changed(OTHER_SALE);

        assertThat(known.answer(SALE, lines(PHONE), NOW)).as("ADR 79: paused is the store's answer, not sold out")
                .isEmpty();
        assertThat(known.answer(OTHER_SALE, lines(PHONE), NOW)).as("an extended sale is no longer ended").isEmpty();
    }

    @Test
    void givenAPauseHeardWhileASoldOutAnswerWasOnItsWay_whenTheAnswerArrives_thenItIsNotKept() {
        long ticket = known.ticket();

        known.changed(SALE);
        known.learn(SALE, ticket, new ReservationOutcome.SoldOut(PHONE), NOW);

        assertThat(known.answer(SALE, lines(PHONE), NOW)).isEmpty();
    }

    @Test
    void givenMissedNotices_whenAnythingIsAsked_thenNothingIsKnown() {
        known.learn(SALE, known.ticket(), new ReservationOutcome.SoldOut(PHONE), NOW);
        known.learn(OTHER_SALE, known.ticket(), new ReservationOutcome.Ended(NOW), NOW);

        known.missedSome();

        assertThat(known.answer(SALE, lines(PHONE), NOW)).isEmpty();
        assertThat(known.answer(OTHER_SALE, lines(PHONE), NOW)).isEmpty();
    }

    @Test
    void givenAReturnHeardWhileTheAnswerWasOnItsWay_whenTheAnswerArrives_thenItIsNotKept() {
        long ticket = known.ticket();
        known.returned(OTHER_SALE);

        known.learn(SALE, ticket, new ReservationOutcome.SoldOut(PHONE), NOW);
        known.learn(SALE, ticket, new ReservationOutcome.Ended(NOW), NOW);

        assertThat(known.answer(SALE, lines(PHONE), NOW)).isEmpty();
    }

    @Test
    void givenAnEndedSale_whenAnySkuIsAsked_thenTheSaleIsKnownEnded() {
        var ended = new ReservationOutcome.Ended(NOW.minusSeconds(5));
        known.learn(SALE, known.ticket(), ended, NOW);

        assertThat(known.answer(SALE, lines(CASE), NOW)).contains(ended);
    }

    @Test
    void givenANotStartedSale_whenItsStartOrTheShortMemoryComes_thenTheStoreIsAskedAgain() {
        var startsSoon = new ReservationOutcome.NotStarted(NOW.plusMillis(40));
        known.learn(SALE, known.ticket(), startsSoon, NOW);
        var startsLater = new ReservationOutcome.NotStarted(NOW.plusSeconds(60));
        known.learn(OTHER_SALE, known.ticket(), startsLater, NOW);

        assertThat(known.answer(SALE, lines(PHONE), NOW.plusMillis(39))).contains(startsSoon);
        assertThat(known.answer(SALE, lines(PHONE), NOW.plusMillis(40))).isEmpty();
        assertThat(known.answer(OTHER_SALE, lines(PHONE), NOW.plusMillis(99))).contains(startsLater);
        assertThat(known.answer(OTHER_SALE, lines(PHONE), NOW.plusMillis(100))).isEmpty();
    }

    @Test
    void givenRefusalsThatAreNotFinal_whenLearnt_thenNothingIsKept() {
        known.learn(SALE, known.ticket(), new ReservationOutcome.InsufficientStock(PHONE, 1), NOW);
        known.learn(SALE, known.ticket(), new ReservationOutcome.LimitExceeded(PHONE, 1, 1), NOW);
        known.learn(SALE, known.ticket(), new ReservationOutcome.NotReady(), NOW);
        known.learn(SALE, known.ticket(), new ReservationOutcome.UnknownSku(PHONE), NOW);

        assertThat(known.answer(SALE, lines(PHONE), NOW)).isEmpty();
    }

    @Test
    void givenTheDisabledMemory_whenARefusalIsLearnt_thenNothingIsKept() {
        KnownRefusals none = KnownRefusals.none();
        none.learn(SALE, none.ticket(), new ReservationOutcome.SoldOut(PHONE), NOW);

        assertThat(none.answer(SALE, lines(PHONE), NOW)).isEmpty();
    }

    @Test
    void givenNoMemory_whenMade_thenRefused() {
        assertThatThrownBy(() -> KnownRefusals.remembering(Duration.ZERO, Duration.ofMillis(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
