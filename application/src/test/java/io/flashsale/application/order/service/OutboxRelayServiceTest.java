package io.flashsale.application.order.service;

import io.flashsale.application.order.port.out.EventPublishException;
import io.flashsale.application.order.port.out.OrderPipelineMetricsPort;
import io.flashsale.application.order.port.out.OutboxEntry;
import io.flashsale.application.order.port.out.ReservationEventPublisherPort;
import io.flashsale.application.order.port.out.ReservationOutboxPort;
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
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.InOrder;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyList;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
class OutboxRelayServiceTest {

    private static final ActivityId SALE = new ActivityId("summer-sale");
    private static final ActivityId OTHER_SALE = new ActivityId("winter-sale");
    private static final String RELAY = "relay-1";
    private static final Duration STALE_AFTER = Duration.ofSeconds(30);
    private static final int BATCH = 5;

    @Mock
    private ReservationOutboxPort outbox;
    @Mock
    private ReservationEventPublisherPort publisher;
    @Mock
    private OrderPipelineMetricsPort metrics;
    private OutboxRelayService relay;

    @BeforeEach
    void wire() {
        relay = new OutboxRelayService(outbox, publisher, metrics, RELAY, STALE_AFTER, BATCH);
    }

    private static OutboxEntry entry(ActivityId activityId, String position) {
        var reservation = new Reservation(ReservationId.of(activityId, "t" + position.replace("-", "x")), activityId,
                new BuyerId("alice"), new RequestId("k" + position.replace("-", "")),
                List.of(new ReservationLine(new SkuId("a"), 1)), ReservationStatus.RESERVED,
                Instant.parse("2030-06-01T10:00:00Z"));
        return new OutboxEntry(position, reservation);
    }

    private static List<Reservation> reservationsOf(List<OutboxEntry> entries) {
        return entries.stream().map(OutboxEntry::reservation).toList();
    }

    private void outboxHolds(ActivityId activityId, List<OutboxEntry> stale, List<OutboxEntry> fresh) {
        when(outbox.claimStale(activityId, RELAY, STALE_AFTER, BATCH)).thenReturn(stale);
        when(outbox.readNew(activityId, RELAY, BATCH - stale.size())).thenReturn(fresh);
    }

    @Test
    void givenStaleAndNewEntries_thenStaleOnesAreClaimedFirstAllArePublishedAndOnlyThenAcknowledged() {
        List<OutboxEntry> stale = List.of(entry(SALE, "1-0"));
        List<OutboxEntry> fresh = List.of(entry(SALE, "2-0"), entry(SALE, "3-0"));
        when(outbox.activities()).thenReturn(Set.of(SALE));
        outboxHolds(SALE, stale, fresh);

        assertThat(relay.relayPending()).isEqualTo(3);

        List<OutboxEntry> all = List.of(stale.getFirst(), fresh.get(0), fresh.get(1));
        InOrder order = inOrder(outbox, publisher, metrics);
        order.verify(outbox).claimStale(SALE, RELAY, STALE_AFTER, BATCH);
        order.verify(outbox).readNew(SALE, RELAY, BATCH - 1);
        order.verify(publisher).publishAt(reservationsOf(all));
        order.verify(outbox).acknowledge(SALE, all, List.of());
        order.verify(metrics).relayed(3);
    }

    @Test
    void givenTheBrokerDoesNotAcknowledge_thenNothingIsAcknowledgedNorCountedAndTheFailurePropagates() {
        List<OutboxEntry> fresh = List.of(entry(SALE, "1-0"));
        when(outbox.activities()).thenReturn(Set.of(SALE));
        outboxHolds(SALE, List.of(), fresh);
        var brokerDown = new EventPublishException("not acknowledged", new RuntimeException("timeout"));
        doThrow(brokerDown).when(publisher).publishAt(anyList());

        assertThatThrownBy(() -> relay.relayPending()).isSameAs(brokerDown);

        verify(outbox, never()).acknowledge(any(), anyList(), anyList());
        verifyNoInteractions(metrics);
    }

    @Test
    void givenOneActivityCannotBePublished_thenTheOthersAreStillRelayedAndCountedBeforeTheFailurePropagates() {
        List<OutboxEntry> failing = List.of(entry(SALE, "1-0"));
        List<OutboxEntry> fine = List.of(entry(OTHER_SALE, "1-0"), entry(OTHER_SALE, "2-0"));
        when(outbox.activities()).thenReturn(new LinkedHashSet<>(List.of(SALE, OTHER_SALE)));
        outboxHolds(SALE, List.of(), failing);
        outboxHolds(OTHER_SALE, List.of(), fine);
        var brokerDown = new EventPublishException("not acknowledged", new RuntimeException("record too large"));
        doThrow(brokerDown).when(publisher).publishAt(reservationsOf(failing));

        assertThatThrownBy(() -> relay.relayPending()).isSameAs(brokerDown);

        verify(outbox, never()).acknowledge(eq(SALE), anyList(), anyList());
        verify(outbox).acknowledge(OTHER_SALE, fine, List.of());
        verify(metrics).relayed(2);
    }

    @Test
    void givenNoActivities_thenNothingIsReadPublishedOrCounted() {
        when(outbox.activities()).thenReturn(Set.of());

        assertThat(relay.relayPending()).isZero();

        verify(outbox, never()).readNew(any(), any(), anyInt());
        verifyNoInteractions(publisher, metrics);
    }

    @Test
    void givenEmptyOutboxes_thenNothingIsPublishedAcknowledgedOrCounted() {
        when(outbox.activities()).thenReturn(new LinkedHashSet<>(List.of(SALE, OTHER_SALE)));
        outboxHolds(SALE, List.of(), List.of());
        outboxHolds(OTHER_SALE, List.of(), List.of());

        assertThat(relay.relayPending()).isZero();

        verify(outbox, never()).acknowledge(any(), anyList(), anyList());
        verifyNoInteractions(publisher, metrics);
    }

    @Test
    void givenAFullBatchOfStaleEntries_thenNoNewOnesAreReadInThatPassSoABatchNeverExceedsTheBatchSize() {
        List<OutboxEntry> stale = List.of(entry(SALE, "1-0"), entry(SALE, "2-0"), entry(SALE, "3-0"),
                entry(SALE, "4-0"), entry(SALE, "5-0"));
        when(outbox.activities()).thenReturn(Set.of(SALE));
        when(outbox.claimStale(SALE, RELAY, STALE_AFTER, BATCH)).thenReturn(stale);

        assertThat(relay.relayPending()).isEqualTo(BATCH);

        verify(outbox, never()).readNew(any(), any(), anyInt());
        verify(publisher).publishAt(reservationsOf(stale));
        verify(outbox).acknowledge(SALE, stale, List.of());
    }

    @Test
    void everyActivityIsRelayedInItsOwnBatchAndTheMetricCountsThemAllOnce() {
        List<OutboxEntry> summer = List.of(entry(SALE, "1-0"));
        List<OutboxEntry> winter = List.of(entry(OTHER_SALE, "1-0"), entry(OTHER_SALE, "2-0"));
        when(outbox.activities()).thenReturn(new LinkedHashSet<>(List.of(SALE, OTHER_SALE)));
        outboxHolds(SALE, List.of(), summer);
        outboxHolds(OTHER_SALE, List.of(), winter);

        assertThat(relay.relayPending()).isEqualTo(3);

        verify(publisher).publishAt(reservationsOf(summer));
        verify(publisher).publishAt(reservationsOf(winter));
        verify(outbox).acknowledge(SALE, summer, List.of());
        verify(outbox).acknowledge(OTHER_SALE, winter, List.of());
        verify(metrics).relayed(3);
    }

    @Test
    void aBatchSizeBelowOneIsRefused() {
        assertThatThrownBy(() -> new OutboxRelayService(outbox, publisher, metrics, RELAY, STALE_AFTER, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
