package io.flashsale.adapter.kafka;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.Reservation;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ReservationLogContextTest {

    private final ReservationMessageCodec codec = new ReservationMessageCodec();

    @AfterEach
    void clear() {
        MDC.clear();
    }

    @Test
    void givenAnEvent_whenALineIsLoggedAboutIt_thenItsFourIdsAreInTheMdcAndTheThreadsOwnComeBackAfter() {
        ActivityId activity = Reservations.newActivity();
        Reservation reservation = Reservations.reserved(activity);
        MDC.put(ReservationLogContext.REQUEST_ID, "the-thread-s-own");
        Map<String, String> seen = new HashMap<>();

        ReservationLogContext.during(record(reservation.id().value(), codec.encode(reservation)),
                () -> seen.putAll(MDC.getCopyOfContextMap()));

        assertThat(seen).containsEntry(ReservationLogContext.REQUEST_ID, reservation.requestId().value())
                .containsEntry(ReservationLogContext.RESERVATION_ID, reservation.id().value())
                .containsEntry(ReservationLogContext.ACTIVITY_ID, activity.value())
                .containsEntry(ReservationLogContext.BUYER_ID, reservation.buyerId().value());
        assertThat(MDC.getCopyOfContextMap()).containsExactlyEntriesOf(
                Map.of(ReservationLogContext.REQUEST_ID, "the-thread-s-own"));
    }

    @Test
    void givenAnEventThatDoesNotDecode_whenALineIsLogged_thenTheKeyStillNamesTheReservationAndItsActivity() {
        Map<String, String> seen = new HashMap<>();

        ReservationLogContext.during(record("sale-9.abc123", "{not json"), () -> seen.putAll(MDC.getCopyOfContextMap()));

        assertThat(seen).containsExactlyInAnyOrderEntriesOf(Map.of(ReservationLogContext.RESERVATION_ID, "sale-9.abc123",
                ReservationLogContext.ACTIVITY_ID, "sale-9"));
        assertThat(MDC.getCopyOfContextMap()).isNullOrEmpty();
    }

    @Test
    void givenAKeyThatIsNoReservationId_whenALineIsLogged_thenNothingFromItReachesTheMdc() {
        Map<String, String> seen = new HashMap<>();

        ReservationLogContext.during(record("forged\nline", null), () -> {
            Map<String, String> context = MDC.getCopyOfContextMap();
            if (context != null) {
                seen.putAll(context);
            }
        });

        assertThat(seen).isEmpty();
    }

    private static ConsumerRecord<String, String> record(String key, String value) {
        return new ConsumerRecord<>("flashsale.reservations", 0, 7L, key, value);
    }
}
