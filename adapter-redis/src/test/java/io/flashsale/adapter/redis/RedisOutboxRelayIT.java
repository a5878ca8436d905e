package io.flashsale.adapter.redis;

import io.flashsale.application.order.port.out.EventPublishException;
import io.flashsale.application.order.port.out.OrderPipelineMetricsPort;
import io.flashsale.application.order.port.out.ReservationEventPublisherPort;
import io.flashsale.application.order.service.OutboxRelayService;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The relay loop ({@link OutboxRelayService}) over the real Redis outbox, two relays at once, while buyers race:
 * every accepted reservation reaches the publisher, also when the publisher fails for a while.
 */
class RedisOutboxRelayIT {

    private static final Duration STALE_AFTER = Duration.ofMillis(200);
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final int RELAYS = 2;
    private static final int BUYERS = 400;
    private static final long UNITS = 150;

    private final OutboxFixture fixture = new OutboxFixture();
    private final RecordingPublisher publisher = new RecordingPublisher();
    private final CountingMetrics metrics = new CountingMetrics();
    private final AtomicBoolean relaying = new AtomicBoolean(true);
    private final AtomicInteger failedPasses = new AtomicInteger();

    /** Stands in for the broker: remembers what it acknowledged, or refuses everything while down. */
    private static final class RecordingPublisher implements ReservationEventPublisherPort {

        final Queue<Reservation> published = new ConcurrentLinkedQueue<>();
        volatile boolean down;

        @Override
        public void publish(List<Reservation> reservations) {
            if (down) {
                throw new EventPublishException("broker down", new IllegalStateException("test broker is down"));
            }
            published.addAll(reservations);
        }
    }

    private static final class CountingMetrics implements OrderPipelineMetricsPort {

        final AtomicInteger relayed = new AtomicInteger();

        @Override
        public void recorded(OrderPlacement placement) {
        }

        @Override
        public void relayed(int reservations) {
            relayed.addAndGet(reservations);
        }
    }

    @AfterEach
    void forgetEverything() {
        relaying.set(false);
        fixture.close();
    }

    @Test
    void givenABurstOfReservations_thenTheRelaysDeliverEveryAcceptedOneAndLeaveTheOutboxEmpty() throws Exception {
        Activity sale = fixture.warmedUpSale("relay", UNITS);

        try (ExecutorService pool = Executors.newFixedThreadPool(RELAYS + 4)) {
            try {
                List<Future<?>> relays = startRelays(pool);
                List<Reservation> accepted = burst(pool, sale);

                awaitTrue(() -> everyAcceptedIsPublished(accepted) && fixture.pending(sale.id()) == 0);
                stop(relays);

                assertThat(accepted).hasSize((int) UNITS);
                assertThat(Set.copyOf(publisher.published)).containsExactlyInAnyOrderElementsOf(accepted);
                assertThat(metrics.relayed.get()).isGreaterThanOrEqualTo(accepted.size());
                assertThat(failedPasses.get()).isZero();
                assertThat(fixture.length(sale.id())).isZero();
            } finally {
                // The pool's close waits for the relay loops: they must end even when an assertion failed.
                relaying.set(false);
            }
        }
    }

    @Test
    void givenThePublisherFailsForAWhile_thenNothingIsAcknowledgedMeanwhileAndEverythingIsDeliveredAfterItRecovers()
            throws Exception {
        Activity sale = fixture.warmedUpSale("outage", UNITS);
        publisher.down = true;

        try (ExecutorService pool = Executors.newFixedThreadPool(RELAYS + 4)) {
            try {
                List<Future<?>> relays = startRelays(pool);
                List<Reservation> accepted = burst(pool, sale);
                awaitTrue(() -> fixture.pending(sale.id()) == fixture.length(sale.id())
                        && failedPasses.get() >= 2 * RELAYS);
                Thread.sleep(3 * STALE_AFTER.toMillis());

                assertThat(publisher.published).isEmpty();
                assertThat(fixture.reservationsIn(sale.id())).as("nothing trimmed while undelivered")
                        .isEqualTo(accepted.size());

                publisher.down = false;
                awaitTrue(() -> everyAcceptedIsPublished(accepted) && fixture.pending(sale.id()) == 0);
                stop(relays);

                assertThat(Set.copyOf(publisher.published)).containsExactlyInAnyOrderElementsOf(accepted);
                assertThat(fixture.length(sale.id())).isZero();
            } finally {
                relaying.set(false);
            }
        }
    }

    private List<Future<?>> startRelays(ExecutorService pool) {
        var relays = new ArrayList<Future<?>>();
        for (int r = 0; r < RELAYS; r++) {
            var relay = new OutboxRelayService(fixture.outbox, publisher, metrics, "relay-" + r, STALE_AFTER, 16);
            relays.add(pool.submit(() -> loop(relay)));
        }
        return relays;
    }

    /** What a scheduler does: pass after pass; a failed pass is retried on the next one. */
    private Void loop(OutboxRelayService relay) throws InterruptedException {
        while (relaying.get()) {
            try {
                if (relay.relayPending() == 0) {
                    Thread.sleep(5);
                }
            } catch (EventPublishException brokerDown) {
                failedPasses.incrementAndGet();
                Thread.sleep(20);
            }
        }
        return null;
    }

    private void stop(List<Future<?>> relays) throws Exception {
        relaying.set(false);
        for (Future<?> relay : relays) {
            relay.get();
        }
    }

    /** Four threads of buyers race for the units while the relays run; returns the accepted reservations. */
    private List<Reservation> burst(ExecutorService pool, Activity sale) throws Exception {
        var buyers = new ArrayList<Future<List<Reservation>>>();
        for (int w = 0; w < 4; w++) {
            int writer = w;
            buyers.add(pool.submit(() -> {
                var accepted = new ArrayList<Reservation>();
                for (int b = writer; b < BUYERS; b += 4) {
                    accepted.add(fixture.reserve(sale.id(), "buyer-" + b));
                }
                return accepted;
            }));
        }
        var accepted = new ArrayList<Reservation>();
        for (Future<List<Reservation>> buyer : buyers) {
            buyer.get().stream().filter(Objects::nonNull).forEach(accepted::add);
        }
        return accepted;
    }

    private boolean everyAcceptedIsPublished(List<Reservation> accepted) {
        Set<ReservationId> published = publisher.published.stream().map(Reservation::id).collect(Collectors.toSet());
        return accepted.stream().allMatch(reservation -> published.contains(reservation.id()));
    }

    private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition not met within " + PATIENCE).isLessThan(deadline);
            Thread.sleep(20);
        }
    }
}
