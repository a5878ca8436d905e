package io.flashsale.application.reservation.service;

import io.flashsale.application.reservation.port.out.AcceptedRequestsPort;
import io.flashsale.application.reservation.port.out.AcceptedRequestsSnapshotPort;
import io.flashsale.application.shared.port.out.StoreUnavailableException;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.lenient;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/**
 * Keyed attempts against known refusals (ADR 0069): answered here only for a sold-out SKU or an ended sale, when a read
 * of the sale's accepted keys made after the refusal was learnt surely lacks the key; the read is made once per sale,
 * bounded in rate, and forgotten with the refusals at a return of units.
 */
@ExtendWith(MockitoExtension.class)
class KnownRefusalsAcceptedKeysTest {

    private static final ActivityId SALE = new ActivityId("sale");
    private static final SkuId PHONE = new SkuId("phone");
    private static final SkuId CASE = new SkuId("case");
    private static final Instant NOW = Instant.parse("2030-01-01T10:00:00Z");
    private static final Duration GAP = Duration.ofSeconds(1);
    private static final BuyerId ANN = new BuyerId("ann");
    private static final RequestId NEW_KEY = new RequestId("never-sent");
    private static final RequestId ACCEPTED_KEY = new RequestId("accepted");
    private static final ReservationOutcome SOLD_OUT = new ReservationOutcome.SoldOut(PHONE);

    @Mock
    private AcceptedRequestsPort port;
    @Mock
    private AcceptedRequestsSnapshotPort accepted;
    private KnownRefusals known;

    @BeforeEach
    void wire() {
        known = KnownRefusals.remembering(Duration.ofMinutes(1), Duration.ofMillis(100), port, GAP);
        lenient().when(port.read(SALE)).thenReturn(Optional.of(accepted));
        lenient().when(accepted.mayHold(ANN, NEW_KEY)).thenReturn(false);
        lenient().when(accepted.mayHold(ANN, ACCEPTED_KEY)).thenReturn(true);
    }

    private static List<ReservationLine> lines(SkuId... skus) {
        return java.util.Arrays.stream(skus).map(sku -> new ReservationLine(sku, 1)).toList();
    }

    private Optional<ReservationOutcome> keyed(RequestId key, SkuId... skus) {
        return known.answer(SALE, ANN, key, lines(skus), NOW);
    }

    @Test
    void givenASoldOutSkuAndItsRead_whenAKeyTheReadSurelyLacksAttempts_thenItIsAnsweredHereAndAMaybeGoesToTheStore() {
        known.learn(SALE, known.ticket(), SOLD_OUT, NOW);

        assertThat(keyed(NEW_KEY, PHONE)).contains(SOLD_OUT);
        assertThat(keyed(NEW_KEY, CASE, PHONE)).contains(SOLD_OUT);
        assertThat(keyed(ACCEPTED_KEY, PHONE)).as("may have been accepted: only the store replays it").isEmpty();
        assertThat(keyed(NEW_KEY, CASE)).isEmpty();
        verify(port, times(1)).read(SALE);
    }

    @Test
    void givenAnEndedSaleAndItsRead_whenANewKeyAttempts_thenEndedIsAnsweredHere() {
        var ended = new ReservationOutcome.Ended(NOW.minusSeconds(5));
        known.learn(SALE, known.ticket(), ended, NOW);

        assertThat(keyed(NEW_KEY, CASE)).contains(ended);
        assertThat(keyed(ACCEPTED_KEY, CASE)).isEmpty();
    }

    @Test
    void givenANotStartedSale_whenAKeyedAttemptComes_thenTheStoreDecidesAndNothingIsRead() {
        known.learn(SALE, known.ticket(), new ReservationOutcome.NotStarted(NOW.plusSeconds(1)), NOW);

        assertThat(keyed(NEW_KEY, PHONE)).isEmpty();
        assertThat(known.answer(SALE, lines(PHONE), NOW)).as("an attempt without a key still is answered").isPresent();
        verify(port, never()).read(any());
    }

    @Test
    void givenTheStoreKeepsNoUsableKeysOrDoesNotAnswer_whenAKeyedAttemptComes_thenTheStoreDecides() {
        when(port.read(SALE)).thenReturn(Optional.empty());
        known.learn(SALE, known.ticket(), SOLD_OUT, NOW);
        assertThat(keyed(NEW_KEY, PHONE)).isEmpty();

        when(port.read(SALE)).thenThrow(new StoreUnavailableException("down", null));
        known.learn(SALE, known.ticket(), SOLD_OUT, NOW.plus(GAP));
        assertThat(keyed(NEW_KEY, PHONE)).isEmpty();
    }

    @Test
    void givenAReadMadeBeforeAnotherSkuSoldOut_whenAKeyedAttemptMeetsThatSku_thenTheStoreDecidesUntilTheNextRead() {
        known.learn(SALE, known.ticket(), SOLD_OUT, NOW);
        known.learn(SALE, known.ticket(), new ReservationOutcome.SoldOut(CASE), NOW.plusMillis(10));

        assertThat(keyed(NEW_KEY, CASE)).as("a key may have taken the case after the read").isEmpty();
        assertThat(keyed(NEW_KEY, PHONE)).contains(SOLD_OUT);
        verify(port, times(1)).read(SALE);

        known.learn(SALE, known.ticket(), new ReservationOutcome.SoldOut(CASE), NOW.plus(GAP));

        assertThat(keyed(NEW_KEY, CASE)).contains(new ReservationOutcome.SoldOut(CASE));
        verify(port, times(2)).read(SALE);
    }

    @Test
    void givenAVouchedRefusal_whenAnswersThatWereOnTheirWayTeachItAgain_thenNewKeysAreStillAnsweredHere() {
        known.learn(SALE, known.ticket(), SOLD_OUT, NOW);
        known.learn(SALE, known.ticket(), SOLD_OUT, NOW.plusMillis(5));
        known.learn(SALE, known.ticket(), SOLD_OUT, NOW.plusMillis(9));

        assertThat(keyed(NEW_KEY, PHONE)).as("the read vouching for the first refusal still vouches").contains(SOLD_OUT);
        verify(port, times(1)).read(SALE);
    }

    @Test
    void givenAnEndedSaleLearntAgain_whenANewKeyAttempts_thenTheFirstReadStillVouches() {
        var ended = new ReservationOutcome.Ended(NOW.minusSeconds(5));
        known.learn(SALE, known.ticket(), ended, NOW);
        known.learn(SALE, known.ticket(), ended, NOW.plusMillis(5));

        assertThat(keyed(NEW_KEY, CASE)).contains(ended);
        verify(port, times(1)).read(SALE);
    }

    @Test
    void givenAShortMemory_whenTheRefusalExpiresAndIsLearntAgain_thenItIsReadAfreshAndAnsweredHereAgain() {
        known = KnownRefusals.remembering(Duration.ofMillis(500), Duration.ofMillis(100), port, Duration.ofMillis(500));
        known.learn(SALE, known.ticket(), SOLD_OUT, NOW);
        Instant later = NOW.plusMillis(600);

        assertThat(known.answer(SALE, ANN, NEW_KEY, lines(PHONE), later)).as("expired: the store decides").isEmpty();
        known.learn(SALE, known.ticket(), SOLD_OUT, later);

        assertThat(known.answer(SALE, ANN, NEW_KEY, lines(PHONE), later)).contains(SOLD_OUT);
        verify(port, times(2)).read(SALE);
    }

    @Test
    void givenARead_whenUnitsReturn_thenKeyedAttemptsGoToTheStoreAndTheNextSoldOutIsReadAfresh() {
        known.learn(SALE, known.ticket(), SOLD_OUT, NOW);

        known.returned(SALE);

        assertThat(keyed(NEW_KEY, PHONE)).isEmpty();
        known.learn(SALE, known.ticket(), SOLD_OUT, NOW.plus(GAP));
        assertThat(keyed(NEW_KEY, PHONE)).contains(SOLD_OUT);
        verify(port, times(2)).read(SALE);
    }

    @Test
    void givenAReturnHeardWhileTheReadWasOnItsWay_whenTheSaleIsLearntSoldOutAgain_thenThatReadVouchesForNothing() {
        when(port.read(SALE)).thenAnswer(call -> {
            // The read's answer may predate the return, so the key accepted after it could be missing.
            known.returned(SALE);
            known.learn(SALE, known.ticket(), SOLD_OUT, NOW);
            return Optional.of(accepted);
        });

        known.learn(SALE, known.ticket(), SOLD_OUT, NOW);

        assertThat(known.answer(SALE, lines(PHONE), NOW)).contains(SOLD_OUT);
        assertThat(keyed(NEW_KEY, PHONE)).isEmpty();
        verify(port, times(1)).read(SALE);
    }

    @Test
    void givenKnownRefusalsWithoutAPort_whenAKeyedAttemptComes_thenTheStoreAlwaysDecides() {
        KnownRefusals plain = KnownRefusals.remembering(Duration.ofMinutes(1), Duration.ofMillis(100));
        plain.learn(SALE, plain.ticket(), SOLD_OUT, NOW);

        assertThat(plain.answer(SALE, ANN, NEW_KEY, lines(PHONE), NOW)).isEmpty();
        assertThat(plain.answer(SALE, lines(PHONE), NOW)).contains(SOLD_OUT);
    }
}
