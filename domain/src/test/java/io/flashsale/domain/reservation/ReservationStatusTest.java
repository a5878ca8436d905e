package io.flashsale.domain.reservation;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static io.flashsale.domain.reservation.ReservationStatus.CANCELLED;
import static io.flashsale.domain.reservation.ReservationStatus.EXPIRED;
import static io.flashsale.domain.reservation.ReservationStatus.FAILED;
import static io.flashsale.domain.reservation.ReservationStatus.ORDERED;
import static io.flashsale.domain.reservation.ReservationStatus.PAID;
import static io.flashsale.domain.reservation.ReservationStatus.RESERVED;
import static org.assertj.core.api.Assertions.assertThat;

class ReservationStatusTest {

    /** The design's state machine, written out independently of the enum. */
    private static final Map<ReservationStatus, Set<ReservationStatus>> ALLOWED = Map.of(
            RESERVED, Set.of(ORDERED, FAILED, CANCELLED),
            ORDERED, Set.of(PAID, CANCELLED, EXPIRED));

    static Stream<Arguments> everyPair() {
        return Arrays.stream(ReservationStatus.values()).flatMap(from -> Arrays.stream(ReservationStatus.values())
                .map(to -> Arguments.of(from, to, ALLOWED.getOrDefault(from, Set.of()).contains(to))));
    }

    @ParameterizedTest(name = "{0} -> {1} allowed: {2}")
    @MethodSource("everyPair")
    void everyPairIsAllowedExactlyWhenTheStateMachineSaysSo(ReservationStatus from, ReservationStatus to, boolean allowed) {
        assertThat(from.canBecome(to)).isEqualTo(allowed);
        assertThat(from.next().contains(to)).isEqualTo(allowed);
    }

    @ParameterizedTest
    @EnumSource(names = {"PAID", "CANCELLED", "EXPIRED", "FAILED"})
    void paidCancelledExpiredAndFailedAreFinal(ReservationStatus status) {
        assertThat(status.isFinal()).isTrue();
        assertThat(status.next()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(names = {"RESERVED", "ORDERED"})
    void reservedAndOrderedAreNotFinal(ReservationStatus status) {
        assertThat(status.isFinal()).isFalse();
    }

    @Test
    void noStatusCanBecomeItself() {
        for (ReservationStatus status : ReservationStatus.values()) {
            assertThat(status.canBecome(status)).as(status.name()).isFalse();
        }
    }

    @Test
    void nothingLeadsBackToReserved() {
        for (ReservationStatus status : ReservationStatus.values()) {
            assertThat(status.canBecome(RESERVED)).as(status.name()).isFalse();
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"RESERVED", "ORDERED", "PAID"})
    void reservedOrderedAndPaidUnitsStillHoldStock(ReservationStatus status) {
        assertThat(status.holdsStock()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(names = {"CANCELLED", "EXPIRED", "FAILED"})
    void cancelledExpiredAndFailedUnitsAreGivenBack(ReservationStatus status) {
        assertThat(status.holdsStock()).isFalse();
    }

    @ParameterizedTest
    @EnumSource(names = {"CANCELLED", "EXPIRED"})
    void cancelledAndExpiredGiveAnOrdersUnitsBack(ReservationStatus status) {
        assertThat(status.restoresOrderedUnits()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(names = {"RESERVED", "ORDERED", "PAID", "FAILED"})
    void noOtherStatusGivesAnOrdersUnitsBack(ReservationStatus status) {
        assertThat(status.restoresOrderedUnits()).isFalse();
    }
}
