package io.flashsale.adapter.redis;

import io.flashsale.application.order.port.out.OutboxBacklog;
import io.flashsale.application.order.port.out.OutboxEntry;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.Reservation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The outbox's backlog as the gauges read it: unacknowledged entries and the acceptance time of the oldest. */
class RedisOutboxBacklogIT {

    private final OutboxFixture fixture = new OutboxFixture();
    private final RedisReservationOutbox outbox = fixture.outbox;

    @AfterEach
    void forgetEverything() {
        fixture.close();
    }

    @Test
    void anActivityWithoutAnOutboxHasNoBacklog() {
        assertThat(outbox.backlog(new ActivityId("never-warmed-" + System.nanoTime()))).isEqualTo(OutboxBacklog.EMPTY);
    }

    @Test
    void givenEntriesNoRelayReadYet_thenEveryOneWaitsAndTheOldestIsTheFirstAccepted() {
        Activity sale = fixture.warmedUpSale("backlog-unread", 10);
        Instant before = Instant.now().minusMillis(5);
        List<Reservation> accepted = fixture.reserveEach(sale.id(), 4);

        OutboxBacklog backlog = outbox.backlog(sale.id());

        assertThat(accepted).hasSize(4);
        assertThat(backlog.depth()).isEqualTo(4);
        assertThat(backlog.oldestWaiting()).isBetween(before, Instant.now().plusMillis(5));
    }

    @Test
    void pendingAndUndeliveredEntriesCountUntilAcknowledged() throws InterruptedException {
        Activity sale = fixture.warmedUpSale("backlog-flow", 10);
        fixture.reserveEach(sale.id(), 3);
        Thread.sleep(20);
        Instant secondWaveFrom = Instant.now().minusMillis(1);
        List<OutboxEntry> firstThree = outbox.readNew(sale.id(), "r1", 3);
        assertThat(fixture.reserve(sale.id(), "late-1")).isNotNull();
        assertThat(fixture.reserve(sale.id(), "late-2")).isNotNull();
        Instant firstWave = outbox.backlog(sale.id()).oldestWaiting();

        assertThat(outbox.backlog(sale.id()).depth()).as("3 pending + 2 undelivered").isEqualTo(5);

        outbox.acknowledge(sale.id(), firstThree);
        OutboxBacklog afterAcknowledge = outbox.backlog(sale.id());
        assertThat(afterAcknowledge.depth()).isEqualTo(2);
        assertThat(afterAcknowledge.oldestWaiting()).isAfter(firstWave).isAfterOrEqualTo(secondWaveFrom);

        outbox.acknowledge(sale.id(), outbox.readNew(sale.id(), "r1", 10));
        assertThat(outbox.backlog(sale.id())).isEqualTo(OutboxBacklog.EMPTY);
    }
}
