package io.flashsale.application.reconciliation.service;

import io.flashsale.application.reconciliation.port.in.ReconcileActivityUseCase;
import io.flashsale.application.reconciliation.port.out.LostReservationReport;
import io.flashsale.application.reconciliation.port.out.PipelineMark;
import io.flashsale.application.reconciliation.port.out.PipelinePositionPort;
import io.flashsale.application.reconciliation.port.out.RelayedEventsPort;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.SettledReservationsPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.flashsale.application.reconciliation.service.AcknowledgementJournalTest.SALE;
import static io.flashsale.application.reconciliation.service.AcknowledgementJournalTest.reservation;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyCollection;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

class LostReservationAuditTest {

    private final AcknowledgementJournal journal = new AcknowledgementJournal(16);
    private final RelayedEventsPort relayed = mock(RelayedEventsPort.class);
    private final PipelinePositionPort pipeline = mock(PipelinePositionPort.class);
    private final SettledReservationsPort settled = mock(SettledReservationsPort.class);
    private final HeldReservationsPort hotStore = mock(HeldReservationsPort.class);
    private final List<LostReservationReport> reports = new ArrayList<>();
    private final ReconcileActivityUseCase reconciliations = mock(ReconcileActivityUseCase.class);
    private String incarnation = "run-1";
    private LostReservationAudit audit;

    @BeforeEach
    void setUp() {
        audit = new LostReservationAudit(journal, () -> {
            if (incarnation == null) {
                throw new IllegalStateException("Redis does not answer");
            }
            return incarnation;
        }, relayed, pipeline, settled, hotStore, reports::add, reconciliations,
                Clock.fixed(Instant.parse("2026-12-01T10:00:00Z"), ZoneOffset.UTC));
        when(relayed.outboxDrained(SALE)).thenReturn(true);
        when(pipeline.ends()).thenReturn(new PipelineMark(Map.of(0, 10L)));
        when(pipeline.consumed()).thenReturn(new PipelineMark(Map.of(0, 10L)));
        when(pipeline.deadLettered(anyCollection())).thenReturn(Set.of());
    }

    @Test
    void noRestartNoAudit() {
        journal.add(reservation(1));
        assertThat(audit.run()).isFalse();
        assertThat(audit.run()).isFalse();
        assertThat(reports).isEmpty();
        verify(settled, never()).unsettled(anyCollection());
    }

    @Test
    void afterARestartEachAcknowledgedReservationIsFoundInTheDatabaseADeadLetterTheHotStoreOrReportedLost() {
        audit.run();
        for (int i = 0; i < 4; i++) {
            journal.add(reservation(i));
        }
        ReservationId dead = reservation(1).id();
        ReservationId kept = reservation(2).id();
        ReservationId lost = reservation(3).id();
        when(settled.unsettled(anyCollection())).thenReturn(Set.of(dead, kept, lost));
        when(pipeline.deadLettered(anyCollection())).thenReturn(Set.of(dead));
        when(hotStore.findReservation(kept)).thenReturn(Optional.of(reservation(2)));
        when(hotStore.findReservation(lost)).thenReturn(Optional.empty());

        incarnation = null;
        assertThat(audit.run()).as("Redis down: nothing to audit yet").isFalse();
        incarnation = "run-2";
        assertThat(audit.run()).isTrue();

        LostReservationReport report = reports.getFirst();
        assertThat(report.incarnation()).isEqualTo("run-2");
        assertThat(report.audited()).isEqualTo(4);
        assertThat(report.reachedDatabase()).isEqualTo(1);
        assertThat(report.deadLettered()).isEqualTo(1);
        assertThat(report.keptByHotStore()).isEqualTo(1);
        assertThat(report.lost()).extracting(Reservation::id).containsExactly(lost);
        assertThat(audit.lastReport()).isEqualTo(report);
        assertThat(audit.auditPending()).isFalse();
    }

    /**
     * Defect 16: Redis restarted from its AOF kept the sale but lost a reservation whose event had left; its order
     * landed, and Redis offers its unit until a reconciliation takes MySQL's figures. So each audited sale is
     * reconciled once the audit finished, not before the pipeline landed, and one that fails does not stop the rest.
     */
    @Test
    void givenARestart_whenTheAuditFinishes_thenEachSaleOfItsEntriesIsReconciledOnceAndNotBefore() {
        ActivityId other = new ActivityId("sale-2");
        audit.run();
        journal.add(reservation(1));
        journal.add(reservation(2));
        journal.add(new Reservation(ReservationId.of(other, "t9"), other, new BuyerId("buyer-9"), new RequestId("r9"),
                List.of(new ReservationLine(new SkuId("sku"), 1)), ReservationStatus.RESERVED,
                Instant.parse("2026-12-01T10:00:00Z")));
        when(relayed.outboxDrained(other)).thenReturn(true);
        when(settled.unsettled(anyCollection())).thenReturn(Set.of());
        when(pipeline.consumed()).thenReturn(new PipelineMark(Map.of(0, 5L)));
        when(reconciliations.reconcile(SALE)).thenThrow(new IllegalStateException("MySQL does not answer"));
        incarnation = "run-2";

        assertThat(audit.run()).as("the consumer is behind").isFalse();
        verify(reconciliations, never()).reconcile(any());

        when(pipeline.consumed()).thenReturn(new PipelineMark(Map.of(0, 10L)));
        assertThat(audit.run()).isTrue();
        verify(reconciliations, times(1)).reconcile(SALE);
        verify(reconciliations, times(1)).reconcile(other);
        assertThat(audit.run()).as("no second audit without a second restart").isFalse();
        verify(reconciliations, times(2)).reconcile(any());
    }

    @Test
    void theAuditWaitsForTheOutboxThenForTheConsumerToReachTheEndsTakenAfterIt() {
        audit.run();
        journal.add(reservation(1));
        when(relayed.outboxDrained(SALE)).thenReturn(false);
        when(settled.unsettled(anyCollection())).thenReturn(Set.of());
        incarnation = "run-2";

        assertThat(audit.run()).isFalse();
        assertThat(audit.auditPending()).isTrue();
        verify(pipeline, never()).ends();

        when(relayed.outboxDrained(SALE)).thenReturn(true);
        when(pipeline.ends()).thenReturn(new PipelineMark(Map.of(0, 20L)));
        when(pipeline.consumed()).thenReturn(new PipelineMark(Map.of(0, 15L)));
        assertThat(audit.run()).as("5 events still to read").isFalse();

        when(pipeline.ends()).thenReturn(new PipelineMark(Map.of(0, 99L)));
        when(pipeline.consumed()).thenReturn(new PipelineMark(Map.of(0, 20L)));
        assertThat(audit.run()).as("the mark is the one taken once, not a later end").isTrue();
        assertThat(reports.getFirst().reachedDatabase()).isEqualTo(1);
        assertThat(reports.getFirst().lost()).isEmpty();
    }

    @Test
    void aLaterAuditCoversOnlyWhatWasAcknowledgedSinceTheLastAndCountsWhatTheJournalOverwrote() {
        when(settled.unsettled(anyCollection())).thenReturn(Set.of());
        audit.run();
        journal.add(reservation(1));
        incarnation = "run-2";
        audit.run();
        assertThat(reports.getLast().audited()).isEqualTo(1);

        for (int i = 0; i < 20; i++) {
            journal.add(reservation(100 + i));
        }
        incarnation = "run-3";
        audit.run();
        assertThat(reports.getLast().audited()).as("the journal holds 16").isEqualTo(16);
        assertThat(reports.getLast().unaudited()).isEqualTo(4);
        verify(hotStore, never()).findReservation(any());
    }
}
