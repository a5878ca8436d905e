package io.flashsale.domain.reservation;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.shared.InvalidValueException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReservationTest {

    private static final ActivityId ACTIVITY = new ActivityId("sale-1");
    private static final Instant AT = Instant.parse("2030-01-01T10:00:00Z");

    private static Reservation reservation(ReservationStatus status, List<ReservationLine> lines) {
        return new Reservation(ReservationId.of(ACTIVITY, "tok1"), ACTIVITY, new BuyerId("alice"),
                new RequestId("req-1"), lines, status, AT);
    }

    private static Reservation reservation(ReservationStatus status) {
        return reservation(status, List.of(line("a", 2)));
    }

    private static ReservationLine line(String sku, int quantity) {
        return new ReservationLine(new SkuId(sku), quantity);
    }

    @Test
    void givenReserved_whenTransitioningToOrdered_thenANewReservationWithOnlyTheStatusChanged() {
        Reservation reserved = reservation(ReservationStatus.RESERVED);

        Reservation ordered = reserved.transitionTo(ReservationStatus.ORDERED);

        assertThat(ordered).isEqualTo(reservation(ReservationStatus.ORDERED));
        assertThat(reserved.status()).isEqualTo(ReservationStatus.RESERVED);
    }

    @Test
    void givenReserved_thenTheWholeHappyPathToPaidIsAllowed() {
        Reservation paid = reservation(ReservationStatus.RESERVED)
                .transitionTo(ReservationStatus.ORDERED)
                .transitionTo(ReservationStatus.PAID);

        assertThat(paid.status()).isEqualTo(ReservationStatus.PAID);
    }

    @ParameterizedTest
    @EnumSource(names = {"FAILED", "CANCELLED", "ORDERED"})
    void givenReserved_whenTransitioningToAnAllowedStatus_thenDone(ReservationStatus target) {
        assertThat(reservation(ReservationStatus.RESERVED).transitionTo(target).status()).isEqualTo(target);
    }

    @ParameterizedTest
    @EnumSource(names = {"PAID", "CANCELLED", "EXPIRED"})
    void givenOrdered_whenTransitioningToAnAllowedStatus_thenDone(ReservationStatus target) {
        assertThat(reservation(ReservationStatus.ORDERED).transitionTo(target).status()).isEqualTo(target);
    }

    @Test
    void givenReserved_whenTransitioningToPaidOrExpired_thenIllegalTransitionNamingBothStatuses() {
        Reservation reserved = reservation(ReservationStatus.RESERVED);

        assertThatThrownBy(() -> reserved.transitionTo(ReservationStatus.PAID))
                .isInstanceOfSatisfying(IllegalTransitionException.class, refused -> {
                    assertThat(refused.from()).isEqualTo(ReservationStatus.RESERVED);
                    assertThat(refused.to()).isEqualTo(ReservationStatus.PAID);
                })
                .hasMessageContaining("RESERVED").hasMessageContaining("PAID");
        assertThatThrownBy(() -> reserved.transitionTo(ReservationStatus.EXPIRED))
                .isInstanceOf(IllegalTransitionException.class);
    }

    @ParameterizedTest
    @EnumSource(names = {"PAID", "CANCELLED", "EXPIRED", "FAILED"})
    void givenFinalStatus_whenTransitioningAnywhere_thenIllegalTransition(ReservationStatus finalStatus) {
        Reservation done = reservation(finalStatus);

        for (ReservationStatus target : ReservationStatus.values()) {
            assertThatThrownBy(() -> done.transitionTo(target)).as(finalStatus + " -> " + target)
                    .isInstanceOf(IllegalTransitionException.class);
        }
    }

    @Test
    void givenOrdered_whenTransitioningBackToReservedOrToFailed_thenIllegalTransition() {
        Reservation ordered = reservation(ReservationStatus.ORDERED);

        assertThatThrownBy(() -> ordered.transitionTo(ReservationStatus.RESERVED)).isInstanceOf(IllegalTransitionException.class);
        assertThatThrownBy(() -> ordered.transitionTo(ReservationStatus.FAILED)).isInstanceOf(IllegalTransitionException.class);
        assertThatThrownBy(() -> ordered.transitionTo(ReservationStatus.ORDERED)).isInstanceOf(IllegalTransitionException.class);
    }

    @Test
    void givenIdOfAnotherActivity_thenRefused() {
        assertThatThrownBy(() -> new Reservation(ReservationId.of(new ActivityId("other"), "tok1"), ACTIVITY,
                new BuyerId("alice"), new RequestId("req-1"), List.of(line("a", 1)), ReservationStatus.RESERVED, AT))
                .isInstanceOfSatisfying(InvalidValueException.class,
                        refused -> assertThat(refused.field()).isEqualTo("reservationId"));
    }

    @Test
    void givenNoLinesOrMoreThanFifty_thenRefused() {
        List<ReservationLine> fiftyOne = IntStream.rangeClosed(1, 51).mapToObj(i -> line("s" + i, 1)).toList();

        assertThatThrownBy(() -> reservation(ReservationStatus.RESERVED, List.of()))
                .isInstanceOfSatisfying(InvalidValueException.class, refused -> assertThat(refused.field()).isEqualTo("items"));
        assertThatThrownBy(() -> reservation(ReservationStatus.RESERVED, fiftyOne)).isInstanceOf(InvalidValueException.class);
        assertThat(reservation(ReservationStatus.RESERVED, fiftyOne.subList(0, 50)).lines()).hasSize(50);
    }

    @Test
    void givenTheSameSkuOnTwoLines_thenRefused() {
        assertThatThrownBy(() -> reservation(ReservationStatus.RESERVED, List.of(line("a", 1), line("b", 1), line("a", 2))))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("repeat skuId a");
    }

    @Test
    void givenMissingParts_thenRefusedNamingTheField() {
        assertThatThrownBy(() -> new Reservation(null, ACTIVITY, new BuyerId("b"), new RequestId("r"),
                List.of(line("a", 1)), ReservationStatus.RESERVED, AT)).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> new Reservation(ReservationId.of(ACTIVITY, "t"), ACTIVITY, null, new RequestId("r"),
                List.of(line("a", 1)), ReservationStatus.RESERVED, AT)).hasMessageContaining("buyerId");
        assertThatThrownBy(() -> new Reservation(ReservationId.of(ACTIVITY, "t"), ACTIVITY, new BuyerId("b"), null,
                List.of(line("a", 1)), ReservationStatus.RESERVED, AT)).hasMessageContaining("requestId");
        assertThatThrownBy(() -> new Reservation(ReservationId.of(ACTIVITY, "t"), ACTIVITY, new BuyerId("b"),
                new RequestId("r"), List.of(line("a", 1)), null, AT)).hasMessageContaining("status");
        assertThatThrownBy(() -> new Reservation(ReservationId.of(ACTIVITY, "t"), ACTIVITY, new BuyerId("b"),
                new RequestId("r"), List.of(line("a", 1)), ReservationStatus.RESERVED, null)).hasMessageContaining("reservedAt");
    }

    @Test
    void linesAreCopiedSoTheCallerCannotChangeThemAfterwards() {
        List<ReservationLine> lines = new ArrayList<>(List.of(line("a", 1)));
        Reservation reservation = reservation(ReservationStatus.RESERVED, lines);

        lines.add(line("b", 1));

        assertThat(reservation.lines()).containsExactly(line("a", 1));
    }

    @Test
    void isOwnedByItsBuyerOnly() {
        Reservation reservation = reservation(ReservationStatus.RESERVED);

        assertThat(reservation.isOwnedBy(new BuyerId("alice"))).isTrue();
        assertThat(reservation.isOwnedBy(new BuyerId("bob"))).isFalse();
    }

    @Test
    void givenQuantityOutsideOneToAThousand_thenLineIsRefused() {
        assertThatThrownBy(() -> line("a", 0)).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> line("a", -1)).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> line("a", 1001)).isInstanceOf(InvalidValueException.class);
        assertThat(line("a", 1000).quantity()).isEqualTo(1000);
        assertThat(line("a", 1).quantity()).isEqualTo(1);
    }

    @Test
    void requestBecomesAReservedReservationAtItsOwnInstant() {
        ReservationRequest request = new ReservationRequest(ReservationId.of(ACTIVITY, "tok1"), new BuyerId("alice"),
                new RequestId("req-1"), List.of(line("a", 2)), AT);

        assertThat(request.activityId()).isEqualTo(ACTIVITY);
        assertThat(request.toReservation()).isEqualTo(reservation(ReservationStatus.RESERVED));
    }

    @Test
    void onlyReservedAndReplayedOutcomesMeanTheBuyerHoldsAReservation() {
        Reservation reservation = reservation(ReservationStatus.RESERVED);
        SkuId sku = new SkuId("a");

        assertThat(new ReservationOutcome.Reserved(reservation).accepted()).isTrue();
        assertThat(new ReservationOutcome.Replayed(reservation).accepted()).isTrue();
        assertThat(List.<ReservationOutcome>of(new ReservationOutcome.SoldOut(sku),
                new ReservationOutcome.InsufficientStock(sku, 1), new ReservationOutcome.LimitExceeded(sku, 1, 1),
                new ReservationOutcome.NotStarted(AT), new ReservationOutcome.Ended(AT),
                new ReservationOutcome.NotReady(), new ReservationOutcome.UnknownSku(sku)))
                .noneMatch(ReservationOutcome::accepted);
    }
}
