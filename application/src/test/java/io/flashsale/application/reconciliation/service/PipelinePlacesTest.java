package io.flashsale.application.reconciliation.service;

import io.flashsale.application.order.port.out.EventPosition;
import io.flashsale.application.reconciliation.port.out.PipelineMark;
import io.flashsale.application.reconciliation.port.out.PipelinePositionPort;
import io.flashsale.application.reconciliation.port.out.RecoveryMarkPort;
import io.flashsale.application.reconciliation.port.out.RelayedEventsPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.HotReservation;
import io.flashsale.domain.reconciliation.HotSkuSnapshot;
import io.flashsale.domain.reconciliation.LedgerFigures;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyCollection;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/** Where a reservation is in the pipeline decides whether it is in flight; its age does not (ADR 29, ADR 30). */
class PipelinePlacesTest {

    private static final ActivityId SALE = new ActivityId("sale");
    private static final SkuId SKU = new SkuId("sku");
    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
    private static final Instant LONG_AGO = NOW.minus(Duration.ofHours(1));

    private final RelayedEventsPort relayed = mock(RelayedEventsPort.class);
    private final PipelinePositionPort broker = mock(PipelinePositionPort.class);
    private final RecoveryMarkPort marks = mock(RecoveryMarkPort.class);

    @Test
    void givenOldReservationsInKafkaBeyondTheConsumer_thenInFlight_andOnesItReadPastOrNowhereAtAll_thenNot() {
        ReservationId queued = id("queued");
        ReservationId readPast = id("readPast");
        ReservationId appendedLate = id("appendedLate");
        ReservationId nowhere = id("nowhere");
        when(relayed.positions(any(), anyCollection())).thenReturn(Map.of(queued, new EventPosition(0, 7),
                readPast, new EventPosition(1, 3)));
        when(relayed.unrelayed(any(), anyCollection())).thenReturn(Set.of(appendedLate));
        when(broker.consumed()).thenReturn(new PipelineMark(Map.of(0, 7L, 1, 4L)));

        PipelinePlaces.Placed placed = new PipelinePlaces(relayed, broker).place(SALE,
                look(queued, readPast, appendedLate, nowhere), NOW, Duration.ofSeconds(60));

        assertThat(placed.hot().reservations()).filteredOn(HotReservation::inPipeline)
                .extracting(HotReservation::id).containsExactlyInAnyOrder(queued, appendedLate);
        assertThat(placed.seenAt(readPast)).contains(new EventPosition(1, 3));
        assertThat(placed.seenAt(nowhere)).isEmpty();
    }

    @Test
    void givenNoReservationAwaitingItsOrder_thenNeitherTheOutboxNorTheBrokerIsAsked() {
        PipelinePlaces.Placed placed = new PipelinePlaces(relayed, broker).place(SALE, look(), NOW,
                Duration.ofSeconds(60));

        assertThat(placed.hot().reservations()).isEmpty();
        verify(broker, never()).consumed();
        verify(relayed, never()).positions(any(), anyCollection());
    }

    @Test
    void givenTheOutboxStillHoldsEntries_thenTheGateWaitsAndTakesNoMarkYet() {
        when(relayed.outboxDrained(SALE)).thenReturn(false);

        assertThat(new PipelineGate(relayed, broker, marks).landed(SALE)).isFalse();
        verify(broker, never()).ends();
        verify(marks, never()).keepRecoveryMark(any(), any());
    }

    @Test
    void givenTheOutboxDrained_thenTheEndOffsetsAreKeptOnce_andTheGateOpensOnlyWhenTheConsumerReachesThem() {
        PipelineMark ends = new PipelineMark(Map.of(0, 10L, 1, 5L));
        when(relayed.outboxDrained(SALE)).thenReturn(true);
        when(marks.recoveryMark(SALE)).thenReturn(Optional.empty(), Optional.of(ends));
        when(broker.ends()).thenReturn(ends, new PipelineMark(Map.of(0, 99L, 1, 99L)));
        when(broker.consumed()).thenReturn(new PipelineMark(Map.of(0, 10L, 1, 4L)),
                new PipelineMark(Map.of(0, 10L, 1, 5L)));
        PipelineGate gate = new PipelineGate(relayed, broker, marks);

        assertThat(gate.landed(SALE)).as("one event short on partition 1").isFalse();
        assertThat(gate.landed(SALE)).as("at the mark taken first, not at the later end").isTrue();
        verify(marks).keepRecoveryMark(SALE, ends);
    }

    private static ReservationId id(String token) {
        return ReservationId.of(SALE, token);
    }

    private static HotSkuSnapshot look(ReservationId... reserved) {
        List<HotReservation> held = java.util.Arrays.stream(reserved)
                .map(id -> new HotReservation(id, new BuyerId("buyer"), ReservationStatus.RESERVED, 1,
                        LONG_AGO, null, false))
                .toList();
        return new HotSkuSnapshot(SKU, new LedgerFigures(10, held.size(), 0, 10 - held.size()), Map.of(), held,
                Set.of(), "1/1");
    }
}
