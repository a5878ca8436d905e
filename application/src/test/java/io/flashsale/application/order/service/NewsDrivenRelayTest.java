package io.flashsale.application.order.service;

import io.flashsale.application.order.port.out.EventPosition;
import io.flashsale.application.order.port.out.EventPublishException;
import io.flashsale.application.order.port.out.OrderPipelineMetricsPort;
import io.flashsale.application.order.port.out.OutboxBacklog;
import io.flashsale.application.order.port.out.OutboxEntry;
import io.flashsale.application.order.port.out.ReservationEventPublisherPort;
import io.flashsale.application.order.port.out.ReservationOutboxPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NewsDrivenRelayTest {

    private static final Duration STALE_AFTER = Duration.ofSeconds(10);
    private static final NewsDrivenRelay.Sweep SWEEP = new NewsDrivenRelay.Sweep(Duration.ofSeconds(5), 20);
    private static final ActivityId SALE = new ActivityId("summer");
    private static final ActivityId OTHER = new ActivityId("winter");

    private final FakeOutbox outbox = new FakeOutbox();
    private final FakeBroker broker = new FakeBroker();
    private final long[] now = {1_000_000_000L};
    private final NewsDrivenRelay relay = relaySweeping(SWEEP);

    private NewsDrivenRelay relaySweeping(NewsDrivenRelay.Sweep sweep) {
        return new NewsDrivenRelay(new OutboxRelayService(outbox, broker, new NoMetrics(), "relay-1", STALE_AFTER, 3),
                outbox, sweep, () -> now[0]);
    }

    @Test
    void givenTheStartSweepDone_whenNothingHappens_thenPassesReadNoOutboxUntilTheNextSweep() {
        outbox.register(SALE, OTHER);
        relay.relayPending();
        outbox.calls.set(0);

        for (int pass = 0; pass < 100; pass++) {
            advance(Duration.ofMillis(20));
            assertThat(relay.relayPending()).isZero();
        }

        assertThat(outbox.calls).as("calls within 2 s of 20 ms passes, below the next sweep").hasValue(0);
    }

    @Test
    void givenNewsOfOneSale_whenPassing_thenOnlyItIsReadAndReadAgainWhileItYields() {
        outbox.register(SALE, OTHER);
        relay.relayPending();
        outbox.append(SALE, 5);

        relay.news(SALE);

        assertThat(relay.relayPending()).isEqualTo(3);
        assertThat(relay.relayPending()).as("the sale yielded: read again at once").isEqualTo(2);
        assertThat(relay.relayPending()).isZero();
        assertThat(relay.relayPending()).as("yielded nothing: no longer read").isZero();
        assertThat(broker.published).hasSize(5);
        assertThat(outbox.readsOf(OTHER)).as("the sale without news").isZero();
        assertThat(outbox.readsOf(SALE)).isEqualTo(3);
    }

    @Test
    void newsWakesTheLoopOncePerSaleUntilAPassTookIt() {
        var wakes = new AtomicInteger();
        relay.whenWorkArrives(wakes::incrementAndGet);

        relay.news(SALE);
        relay.news(SALE);
        relay.news(OTHER);
        relay.relayPending();
        relay.news(SALE);

        assertThat(wakes).hasValue(3);
    }

    @Test
    void givenAThousandIdleSales_thenTheSweepProbesAtMostItsRatePerSecondYetReachesEverySale() {
        List<ActivityId> sales = IntStream.range(0, 1000).mapToObj(i -> new ActivityId("sale-" + i)).toList();
        outbox.register(sales.toArray(ActivityId[]::new));
        relay.relayPending();
        outbox.calls.set(0);
        outbox.probed.clear();
        // A lost notice: the entry only a sweep finds.
        outbox.append(sales.get(999), 1);

        for (int pass = 0; pass < 10 * 50; pass++) {
            advance(Duration.ofMillis(20));
            relay.relayPending();
        }
        int callsInTenSeconds = outbox.calls.get();
        for (int pass = 0; pass < 50 * 50; pass++) {
            advance(Duration.ofMillis(20));
            relay.relayPending();
        }

        assertThat(callsInTenSeconds).as("probes in 10 s at 20 a second, and one registry read")
                .isLessThanOrEqualTo(10 * 20 + 1);
        assertThat(outbox.probed).as("one sweep of 1,000 sales within 50 s").containsAll(sales);
        assertThat(broker.published).hasSize(1);
    }

    @Test
    void givenNoticesMayHaveBeenMissed_whenPassing_thenEverySaleIsProbedAtOnce() {
        outbox.register(SALE, OTHER);
        relay.relayPending();
        outbox.append(OTHER, 1);
        outbox.probed.clear();

        relay.missedSome();
        relay.relayPending();

        assertThat(outbox.probed).containsExactlyInAnyOrder(SALE, OTHER);
        assertThat(broker.published).hasSize(1);
    }

    @Test
    void givenTheBrokerRefused_thenTheSaleIsReadAgainOnceItsEntriesMayBeClaimed() {
        // No sweep within the test: only the retry can find the entry again.
        NewsDrivenRelay relay = relaySweeping(new NewsDrivenRelay.Sweep(Duration.ofHours(1), 20));
        outbox.register(SALE);
        relay.relayPending();
        outbox.append(SALE, 1);
        broker.failing = true;
        relay.news(SALE);
        assertThatThrownBy(relay::relayPending).isInstanceOf(EventPublishException.class);
        broker.failing = false;

        advance(STALE_AFTER.minusMillis(1));
        relay.relayPending();
        assertThat(broker.published).as("not stale yet").isEmpty();
        advance(Duration.ofMillis(1));
        relay.relayPending();

        assertThat(broker.published).hasSize(1);
    }

    @Test
    void givenEntriesPendingWithADeadRelay_whenASweepFindsThem_thenTheyAreClaimedOnceStaleNotAtTheNextSweep() {
        NewsDrivenRelay relay = relaySweeping(new NewsDrivenRelay.Sweep(Duration.ofHours(1), 20));
        outbox.register(SALE);
        relay.relayPending();
        outbox.append(SALE, 2);
        outbox.readNew(SALE, "dead-relay", 2);
        advance(Duration.ofSeconds(1));

        relay.missedSome();
        relay.relayPending();
        assertThat(broker.published).as("pending with the dead relay for 1 s: not stale").isEmpty();
        advance(STALE_AFTER);
        relay.relayPending();

        assertThat(broker.published).hasSize(2);
    }

    @Test
    void givenRedisFailsMidPass_thenTheNewsIsKeptForTheNextPass() {
        outbox.register(SALE);
        relay.relayPending();
        outbox.append(SALE, 1);
        relay.news(SALE);
        outbox.down = true;
        assertThatThrownBy(relay::relayPending).isInstanceOf(IllegalStateException.class);
        outbox.down = false;

        relay.relayPending();

        assertThat(broker.published).hasSize(1);
    }

    private void advance(Duration duration) {
        now[0] += duration.toNanos();
    }

    private static Reservation reservation(ActivityId activityId, int n) {
        return new Reservation(ReservationId.of(activityId, "r" + n), activityId, new BuyerId("b" + n),
                new RequestId("k" + n), List.of(new ReservationLine(new SkuId("a"), 1)), ReservationStatus.RESERVED,
                Instant.parse("2030-06-01T10:00:00Z"));
    }

    /** Unread entries per sale and the ones read but not acknowledged; counts every call as one Redis command. */
    private final class FakeOutbox implements ReservationOutboxPort {

        final AtomicInteger calls = new AtomicInteger();
        final Set<ActivityId> probed = new LinkedHashSet<>();
        private final Set<ActivityId> registry = new LinkedHashSet<>();
        private final Map<ActivityId, ArrayDeque<OutboxEntry>> unread = new LinkedHashMap<>();
        private final Map<String, Long> pendingSince = new LinkedHashMap<>();
        private final Map<ActivityId, List<OutboxEntry>> pending = new LinkedHashMap<>();
        private final Map<ActivityId, Integer> reads = new LinkedHashMap<>();
        private int appended;
        boolean down;

        void register(ActivityId... sales) {
            registry.addAll(List.of(sales));
        }

        void append(ActivityId activityId, int entries) {
            for (int i = 0; i < entries; i++) {
                appended++;
                unread.computeIfAbsent(activityId, id -> new ArrayDeque<>())
                        .add(new OutboxEntry(appended + "-0", reservation(activityId, appended)));
            }
        }

        int readsOf(ActivityId activityId) {
            return reads.getOrDefault(activityId, 0);
        }

        private void call() {
            if (down) {
                throw new IllegalStateException("redis down");
            }
            calls.incrementAndGet();
        }

        @Override
        public Set<ActivityId> activities() {
            call();
            return new LinkedHashSet<>(registry);
        }

        @Override
        public List<OutboxEntry> readNew(ActivityId activityId, String relay, int max) {
            call();
            reads.merge(activityId, 1, Integer::sum);
            var read = new ArrayList<OutboxEntry>();
            ArrayDeque<OutboxEntry> entries = unread.getOrDefault(activityId, new ArrayDeque<>());
            while (read.size() < max && !entries.isEmpty()) {
                OutboxEntry entry = entries.poll();
                read.add(entry);
                pendingSince.put(entry.entryId(), now[0]);
                pending.computeIfAbsent(activityId, id -> new ArrayList<>()).add(entry);
            }
            return read;
        }

        @Override
        public List<OutboxEntry> claimStale(ActivityId activityId, String relay, Duration minIdle, int max) {
            call();
            return pending.getOrDefault(activityId, List.of()).stream()
                    .filter(entry -> now[0] - pendingSince.get(entry.entryId()) >= minIdle.toNanos())
                    .limit(max).toList();
        }

        @Override
        public void acknowledge(ActivityId activityId, List<OutboxEntry> entries) {
            call();
            pending.getOrDefault(activityId, new ArrayList<>()).removeAll(entries);
        }

        @Override
        public boolean hasEntriesWaiting(ActivityId activityId) {
            call();
            probed.add(activityId);
            return !unread.getOrDefault(activityId, new ArrayDeque<>()).isEmpty()
                    || !pending.getOrDefault(activityId, List.of()).isEmpty();
        }

        @Override
        public OutboxBacklog backlog(ActivityId activityId) {
            throw new UnsupportedOperationException("the relay reads no backlog");
        }
    }

    private static final class FakeBroker implements ReservationEventPublisherPort {

        final List<Reservation> published = new ArrayList<>();
        boolean failing;

        @Override
        public void publish(List<Reservation> reservations) {
            if (failing) {
                throw new EventPublishException("broker down", null);
            }
            published.addAll(reservations);
        }

        @Override
        public List<EventPosition> publishAt(List<Reservation> reservations) {
            publish(reservations);
            return List.of();
        }
    }

    private static final class NoMetrics implements OrderPipelineMetricsPort {

        @Override
        public void recorded(OrderPlacement placement) {
        }

        @Override
        public void relayed(int reservations) {
        }
    }
}
