package io.flashsale.domain.reservation;

import io.flashsale.domain.shared.InvalidValueException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Instant;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StatusTimesTest {

    private static final Instant RESERVED_AT = Instant.parse("2030-01-01T10:00:00Z");
    private static final Instant LATER = Instant.parse("2030-01-01T10:05:00.123Z");

    @Test
    void givenOnlyAReservation_thenOnlyReservedHasAMoment() {
        StatusTimes times = StatusTimes.reservedAt(RESERVED_AT);

        assertThat(times).isEqualTo(new StatusTimes(RESERVED_AT, null, null, null, null, null));
        for (ReservationStatus status : ReservationStatus.values()) {
            assertThat(times.at(status)).as(status.name())
                    .isEqualTo(status == ReservationStatus.RESERVED ? Optional.of(RESERVED_AT)
                            : Optional.empty());
        }
    }

    @ParameterizedTest
    @EnumSource(ReservationStatus.class)
    void withAStatus_thenExactlyThatStatusGetsTheMomentAndTheOthersStay(ReservationStatus status) {
        StatusTimes times = StatusTimes.reservedAt(RESERVED_AT).with(status, LATER);

        assertThat(times.at(status)).contains(LATER);
        for (ReservationStatus other : ReservationStatus.values()) {
            if (other != status && other != ReservationStatus.RESERVED) {
                assertThat(times.at(other)).as(other.name()).isEmpty();
            }
        }
        if (status != ReservationStatus.RESERVED) {
            assertThat(times.reservedAt()).isEqualTo(RESERVED_AT);
        }
    }

    @Test
    void givenNoReservedAt_thenRefused() {
        assertThatThrownBy(() -> StatusTimes.reservedAt(null)).isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("reservedAt");
        assertThatThrownBy(() -> StatusTimes.reservedAt(RESERVED_AT).with(ReservationStatus.PAID, null))
                .isInstanceOf(InvalidValueException.class);
    }
}
