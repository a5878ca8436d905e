package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.PagedReads;
import io.flashsale.adapter.redis.internal.ReservationLines;
import io.flashsale.application.order.port.out.EventPosition;
import io.flashsale.application.order.port.out.OutboxEntry;
import io.flashsale.testsupport.CommandStats;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/** The outbox on the real Redis: every accepted reservation is delivered, acknowledged once, and only then trimmed. */
class RedisReservationOutboxIT {

    private static final Duration MIN_IDLE = Duration.ofMillis(200);

    private final OutboxFixture fixture = new OutboxFixture();
    private final RedisReservationOutbox outbox = fixture.outbox;
    private final RedisClusterCommands<String, String> redis = fixture.redis;

    @AfterEach
    void forgetEverything() {
        fixture.close();
    }

    private static List<Reservation> reservationsOf(List<OutboxEntry> entries) {
        return entries.stream().map(OutboxEntry::reservation).toList();
    }

    private List<String> streamIds(ActivityId activityId) {
        return redis.xrange(RedisKeys.outbox(activityId), Range.create("-", "+")).stream()
                .map(StreamMessage::getId).toList();
    }

    private static List<String> idsOf(List<OutboxEntry> entries) {
        return entries.stream().map(OutboxEntry::entryId).toList();
    }

    @Test
    void givenReservationsWrittenBeforeAnyGroupExisted_whenReadingNew_thenEachComesOnceExactlyAsReservedAndThenNothing() {
        Activity sale = fixture.warmedUpSale("read", 10);
        List<Reservation> accepted = fixture.reserveEach(sale.id(), 7);
        assertThat(redis.xinfoGroups(RedisKeys.outbox(sale.id()))).as("no group yet").isEmpty();

        List<OutboxEntry> read = outbox.readNew(sale.id(), "r1", 100);

        assertThat(reservationsOf(read)).containsExactlyElementsOf(accepted);
        assertThat(idsOf(read)).containsExactlyElementsOf(streamIds(sale.id()));
        assertThat(outbox.readNew(sale.id(), "r1", 100)).isEmpty();
        assertThat(outbox.readNew(sale.id(), "r2", 100)).as("another relay, same group").isEmpty();
        assertThat(fixture.pending(sale.id())).isEqualTo(7);
    }

    /** The sweep's probe: every state an outbox passes through, from none to drained. */
    @Test
    void entriesWaitingAreToldFromNoOutboxThroughUnreadAndPendingToAcknowledged() {
        Activity sale = fixture.warmedUpSale("probe", 10);
        assertThat(outbox.hasEntriesWaiting(sale.id())).as("no outbox yet").isFalse();

        fixture.reserveEach(sale.id(), 2);
        assertThat(outbox.hasEntriesWaiting(sale.id())).as("unread, no group yet").isTrue();
        List<OutboxEntry> first = outbox.readNew(sale.id(), "r1", 1);
        assertThat(outbox.hasEntriesWaiting(sale.id())).as("one pending, one unread").isTrue();
        List<OutboxEntry> second = outbox.readNew(sale.id(), "r1", 1);
        outbox.acknowledge(sale.id(), first);
        assertThat(outbox.hasEntriesWaiting(sale.id())).as("one pending").isTrue();

        outbox.acknowledge(sale.id(), second);

        assertThat(outbox.hasEntriesWaiting(sale.id())).as("every entry acknowledged").isFalse();
    }

    @Test
    void readingNewHonoursMaxAndGoesOnWhereTheGroupLeftOff() {
        Activity sale = fixture.warmedUpSale("max", 10);
        List<Reservation> accepted = fixture.reserveEach(sale.id(), 7);

        List<OutboxEntry> first = outbox.readNew(sale.id(), "r1", 3);
        List<OutboxEntry> second = outbox.readNew(sale.id(), "r2", 3);
        List<OutboxEntry> third = outbox.readNew(sale.id(), "r1", 3);

        assertThat(first).hasSize(3);
        assertThat(second).hasSize(3);
        assertThat(third).hasSize(1);
        var all = new ArrayList<>(first);
        all.addAll(second);
        all.addAll(third);
        assertThat(reservationsOf(all)).containsExactlyElementsOf(accepted);
    }

    @Test
    void givenEntriesReadButNotAcknowledged_thenAnotherRelayClaimsThemOnlyOnceTheyIdledForMinIdle() throws Exception {
        Activity sale = fixture.warmedUpSale("claim", 10);
        fixture.reserveEach(sale.id(), 4);
        long readAt = System.nanoTime();
        List<OutboxEntry> read = outbox.readNew(sale.id(), "dead-relay", 100);

        List<OutboxEntry> tooEarly = outbox.claimStale(sale.id(), "r2", MIN_IDLE, 100);
        if (Duration.ofNanos(System.nanoTime() - readAt).compareTo(MIN_IDLE) < 0) {
            assertThat(tooEarly).as("claimed before the entries idled for " + MIN_IDLE).isEmpty();
        }
        Thread.sleep(MIN_IDLE.toMillis() + 100);
        List<OutboxEntry> claimed = outbox.claimStale(sale.id(), "r2", MIN_IDLE, 100);

        assertThat(claimed).containsExactlyElementsOf(read);
        assertThat(redis.xpending(RedisKeys.outbox(sale.id()), RedisKeys.OUTBOX_GROUP).getConsumerMessageCount())
                .containsEntry("r2", 4L).doesNotContainEntry("dead-relay", 4L);
        assertThat(outbox.claimStale(sale.id(), "r3", MIN_IDLE, 100)).as("a claim restarts the idle time").isEmpty();
    }

    @Test
    void claimingStopsAtMaxAndTheRestIsClaimedNextTime() throws Exception {
        Activity sale = fixture.warmedUpSale("claim-max", 20);
        List<Reservation> accepted = fixture.reserveEach(sale.id(), 11);
        outbox.readNew(sale.id(), "dead-relay", 100);
        Thread.sleep(MIN_IDLE.toMillis() + 100);

        List<OutboxEntry> first = outbox.claimStale(sale.id(), "r2", MIN_IDLE, 4);
        List<OutboxEntry> second = outbox.claimStale(sale.id(), "r2", MIN_IDLE, 100);

        assertThat(first).hasSize(4);
        assertThat(reservationsOf(first)).containsExactlyElementsOf(accepted.subList(0, 4));
        assertThat(reservationsOf(second)).containsExactlyElementsOf(accepted.subList(4, 11));
    }

    @Test
    void acknowledgedEntriesAreNeverReturnedAgainAndAreTrimmedButNeverPastAPendingOne() throws Exception {
        Activity sale = fixture.warmedUpSale("ack", 10);
        fixture.reserveEach(sale.id(), 5);
        List<OutboxEntry> read = outbox.readNew(sale.id(), "r1", 100);
        List<String> ids = idsOf(read);

        outbox.acknowledge(sale.id(), List.of(read.get(0), read.get(2), read.get(4)));

        assertThat(streamIds(sale.id())).as("only the first, acknowledged, entry lies below the oldest pending one")
                .containsExactlyElementsOf(ids.subList(1, 5));
        Thread.sleep(MIN_IDLE.toMillis() + 100);
        List<OutboxEntry> stillPending = outbox.claimStale(sale.id(), "r2", MIN_IDLE, 100);
        assertThat(stillPending).containsExactly(read.get(1), read.get(3));
        assertThat(outbox.readNew(sale.id(), "r2", 100)).isEmpty();

        outbox.acknowledge(sale.id(), stillPending);

        assertThat(fixture.length(sale.id())).isZero();
        assertThat(fixture.pending(sale.id())).isZero();
        Thread.sleep(MIN_IDLE.toMillis() + 100);
        assertThat(outbox.claimStale(sale.id(), "r3", MIN_IDLE, 100)).isEmpty();
    }

    @Test
    void entriesNoRelayHasReadYetAreNeverTrimmed() {
        Activity sale = fixture.warmedUpSale("unread", 10);
        List<Reservation> accepted = fixture.reserveEach(sale.id(), 5);
        List<OutboxEntry> read = outbox.readNew(sale.id(), "r1", 3);

        outbox.acknowledge(sale.id(), read);

        assertThat(fixture.length(sale.id())).isEqualTo(2);
        assertThat(reservationsOf(outbox.readNew(sale.id(), "r1", 100))).containsExactlyElementsOf(accepted.subList(3, 5));
    }

    @Test
    void givenMoreEntriesThanOneAcknowledgeCall_whenAcknowledged_thenEveryOneLeavesTheStreamAndNoneStaysPending() {
        int count = 2 * PagedReads.PAGE + 7; // three script calls, the last one short
        Activity sale = fixture.warmedUpSale("ack-chunks", count);
        fixture.reserveEach(sale.id(), count);
        List<OutboxEntry> read = outbox.readNew(sale.id(), "r1", count);

        outbox.acknowledge(sale.id(), read);

        assertThat(read).hasSize(count);
        assertThat(fixture.length(sale.id())).isZero();
        assertThat(fixture.pending(sale.id())).isZero();
    }

    @Test
    void acknowledgingTwiceOrNothingChangesNothing() {
        Activity sale = fixture.warmedUpSale("ack-twice", 10);
        fixture.reserveEach(sale.id(), 3);
        List<OutboxEntry> read = outbox.readNew(sale.id(), "r1", 2);
        outbox.acknowledge(sale.id(), read);

        outbox.acknowledge(sale.id(), read);
        outbox.acknowledge(sale.id(), List.of());

        assertThat(fixture.length(sale.id())).isEqualTo(1);
        assertThat(fixture.pending(sale.id())).isZero();
    }

    @Test
    void givenAnEntryThatIsNoReservation_thenItIsNeverDeliveredNorDroppedButStaysPendingWhileTheOthersFlow()
            throws Exception {
        Activity sale = fixture.warmedUpSale("junk", 10);
        Reservation before = fixture.reserve(sale.id(), "alice");
        String junk = redis.xadd(RedisKeys.outbox(sale.id()),
                Map.of("type", "reserved", "reservationId", "not a reservation id", "activityId", sale.id().value()));
        Reservation after = fixture.reserve(sale.id(), "bob");

        List<OutboxEntry> read = outbox.readNew(sale.id(), "r1", 100);
        assertThat(reservationsOf(read)).containsExactly(before, after);
        outbox.acknowledge(sale.id(), read);

        assertThat(fixture.pending(sale.id())).isEqualTo(1);
        assertThat(streamIds(sale.id())).as("trimmed up to the malformed entry only").startsWith(junk).hasSize(2);
        Thread.sleep(MIN_IDLE.toMillis() + 100);
        assertThat(outbox.claimStale(sale.id(), "r2", MIN_IDLE, 100)).isEmpty();
        assertThat(redis.xpending(RedisKeys.outbox(sale.id()), RedisKeys.OUTBOX_GROUP).getMessageIds().getLower().getValue())
                .isEqualTo(junk);
        Reservation later = fixture.reserve(sale.id(), "carol");
        assertThat(reservationsOf(outbox.readNew(sale.id(), "r2", 100))).containsExactly(later);
    }

    @Test
    void givenAnEntryAnOlderVersionWrote_thenItIsRelayedBetweenTheNewOnesAsTheSameReservation() {
        Activity sale = fixture.warmedUpSale("older", 10);
        Reservation before = fixture.reserve(sale.id(), "alice");
        var older = new Reservation(ReservationId.of(sale.id(), "older1"), sale.id(), new BuyerId("dave"),
                new RequestId("k-old"), List.of(new ReservationLine(OutboxFixture.SKU, 1)), ReservationStatus.RESERVED,
                Instant.parse("2030-06-01T10:15:30.123456789Z"));
        // The eight fields reserve.lua wrote before the entry was trimmed to five (ADR 68), and the five it wrote
        // before it carried the record (ADR 105).
        redis.xadd(RedisKeys.outbox(sale.id()), Map.of("type", "reserved", "reservationId", older.id().value(),
                "activityId", sale.id().value(), "buyerId", "dave", "requestId", "k-old",
                "lines", ReservationLines.encode(older.lines()), "at", Long.toString(older.reservedAt().toEpochMilli()),
                "reservedAt", older.reservedAt().toString()));
        var five = new Reservation(ReservationId.of(sale.id(), "older2"), sale.id(), new BuyerId("erin"),
                new RequestId("k-five"), List.of(new ReservationLine(OutboxFixture.SKU, 1)), ReservationStatus.RESERVED,
                Instant.parse("2030-06-01T10:15:31.5Z"));
        redis.xadd(RedisKeys.outbox(sale.id()), Map.of("reservationId", five.id().value(), "buyerId", "erin",
                "requestId", "k-five", "lines", ReservationLines.encode(five.lines()),
                "reservedAt", ReservationRecord.pack(five.reservedAt())));
        Reservation after = fixture.reserve(sale.id(), "bob");

        List<OutboxEntry> read = outbox.readNew(sale.id(), "r1", 100);

        assertThat(reservationsOf(read)).containsExactly(before, older, five, after);
        outbox.acknowledge(sale.id(), read);
        assertThat(fixture.pending(sale.id())).isZero();
    }

    @Test
    void givenAnActivityWithoutAnOutboxStream_thenReadsAreEmptyAndNoStreamIsMade() {
        Activity warmedUp = fixture.warmedUpSale("empty", 10);
        ActivityId unknown = fixture.sale("unknown", 1).id();

        for (ActivityId activityId : List.of(warmedUp.id(), unknown)) {
            assertThat(outbox.readNew(activityId, "r1", 10)).isEmpty();
            assertThat(outbox.claimStale(activityId, "r1", Duration.ZERO, 10)).isEmpty();
            outbox.acknowledge(activityId, List.of());
            assertThat(redis.exists(RedisKeys.outbox(activityId))).isZero();
        }
    }

    @Test
    void activitiesAreTheWarmedUpOnesOfTheRegistry() {
        Activity first = fixture.sale("reg", 1);
        Activity second = fixture.sale("reg", 1);
        assertThat(outbox.activities()).isEmpty();

        fixture.stock.warmUp(first);
        fixture.stock.warmUp(second);
        fixture.stock.warmUp(first);

        assertThat(outbox.activities()).containsExactlyInAnyOrder(first.id(), second.id());
        assertThat(new RedisReservationOutbox(SharedRedis.commands(), SharedRedis.newRegistry()).activities())
                .as("another registry").isEmpty();
    }

    @Test
    void givenSeveralRelaysReadingWhileBuyersReserve_thenTogetherTheySeeEveryEntryOnceAndAcknowledgeEachOnce()
            throws Exception {
        Activity sale = fixture.warmedUpSale("many", 1000);
        int writers = 4;
        int perWriter = 100;
        var accepted = new ConcurrentLinkedQueue<Reservation>();
        var delivered = new ConcurrentLinkedQueue<OutboxEntry>();
        var writing = new AtomicBoolean(true);
        try (ExecutorService pool = Executors.newFixedThreadPool(writers + 3)) {
            var relays = new ArrayList<Future<?>>();
            for (int r = 0; r < 3; r++) {
                String relay = "relay-" + r;
                relays.add(pool.submit(() -> relayUntilDrained(sale.id(), relay, writing, delivered)));
            }
            var buyers = new ArrayList<Future<?>>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                buyers.add(pool.submit(() -> {
                    for (int b = 0; b < perWriter; b++) {
                        accepted.add(fixture.reserve(sale.id(), "w" + writer + "-" + b));
                    }
                    return null;
                }));
            }
            for (Future<?> buyer : buyers) {
                buyer.get();
            }
            writing.set(false);
            for (Future<?> relay : relays) {
                relay.get();
            }
        }

        assertThat(accepted).hasSize(writers * perWriter).doesNotContainNull();
        List<Reservation> seen = delivered.stream().map(OutboxEntry::reservation).toList();
        assertThat(seen).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(accepted);
        assertThat(fixture.pending(sale.id())).isZero();
        assertThat(fixture.length(sale.id())).as("everything acknowledged, so everything trimmed").isZero();
    }

    /** Reads and acknowledges until the buyers are done and a read finds nothing new. */
    private Void relayUntilDrained(ActivityId activityId, String relay, AtomicBoolean writing, Queue<OutboxEntry> delivered) {
        while (true) {
            boolean mayStop = !writing.get();
            List<OutboxEntry> read = outbox.readNew(activityId, relay, 16);
            delivered.addAll(read);
            outbox.acknowledge(activityId, read);
            if (read.isEmpty() && mayStop) {
                return null;
            }
        }
    }

    @Test
    void theOutboxEntryCarriesTheIdWithItsRecordAsAcceptedAndNothingElse() {
        Activity sale = fixture.warmedUpSale("nanos", 1);
        Reservation reservation = fixture.reserve(sale.id(), "alice");

        OutboxEntry entry = outbox.readNew(sale.id(), "r1", 1).getFirst();

        assertThat(entry.reservation()).isEqualTo(reservation);
        assertThat(redis.xrange(RedisKeys.outbox(sale.id()), Range.create("-", "+")).getFirst().getBody())
                .containsOnly(entry(reservation.id().value(), ReservationRecord.of(reservation).encode()));
    }

    @Test
    void givenOneCallThatAcceptedThree_whenRelayed_thenTheyComeTogetherUnderOneEntryAndLeaveTogetherWithTheirPositions() {
        Activity sale = fixture.warmedUpSale("together", 10);
        List<Reservation> accepted = fixture.reserveInOneCall(sale.id(), "ann", "bob", "cat");
        assertThat(fixture.length(sale.id())).as("one entry for the call").isEqualTo(1);

        List<OutboxEntry> read = outbox.readNew(sale.id(), "r1", 1);

        assertThat(reservationsOf(read)).containsExactlyElementsOf(accepted);
        assertThat(idsOf(read)).containsOnly(streamIds(sale.id()).getFirst());
        outbox.acknowledge(sale.id(), read, List.of(new EventPosition(0, 7), new EventPosition(1, 8),
                new EventPosition(2, 9)));
        assertThat(fixture.pending(sale.id())).isZero();
        assertThat(fixture.length(sale.id())).isZero();
        assertThat(accepted).extracting(reservation -> ReservationRecord.read(
                        redis.hget(RedisKeys.reservations(sale.id()), reservation.id().value())).orElseThrow().position())
                .containsExactly(new EventPosition(0, 7), new EventPosition(1, 8), new EventPosition(2, 9));
    }

    @Test
    void givenAnEntryAcrossTheAcknowledgementsChunk_whenAcknowledged_thenOneScriptCallTakesItWithEveryPosition() {
        Activity sale = fixture.warmedUpSale("across", PagedReads.PAGE + 2);
        List<Reservation> accepted = new ArrayList<>(fixture.reserveEach(sale.id(), PagedReads.PAGE - 1));
        accepted.addAll(fixture.reserveInOneCall(sale.id(), "ann", "bob", "cat"));
        List<OutboxEntry> read = outbox.readNew(sale.id(), "r1", PagedReads.PAGE);
        assertThat(read).hasSize(PagedReads.PAGE + 2);
        var positions = new ArrayList<EventPosition>();
        for (int i = 0; i < read.size(); i++) {
            positions.add(new EventPosition(0, i));
        }

        Map<String, Long> before = CommandStats.calls(SharedRedis.commandStatsOf(RedisKeys.outbox(sale.id())));
        outbox.acknowledge(sale.id(), read, positions);
        Map<String, Long> calls = CommandStats.between(before,
                CommandStats.calls(SharedRedis.commandStatsOf(RedisKeys.outbox(sale.id()))));

        assertThat(calls).as("the last entry's three reservations are not split over two steps")
                .containsEntry("evalsha", 1L);
        assertThat(fixture.length(sale.id())).isZero();
        for (int i = 0; i < accepted.size(); i++) {
            assertThat(ReservationRecord.read(redis.hget(RedisKeys.reservations(sale.id()),
                    accepted.get(i).id().value())).orElseThrow().position()).isEqualTo(new EventPosition(0, i));
        }
    }

    @Test
    void givenAnEntryOneOfWhoseReservationsCannotBeRead_thenNoneOfItIsRelayedAndItStaysPending() {
        Activity sale = fixture.warmedUpSale("torn", 10);
        Reservation good = fixture.reserve(sale.id(), "ann");
        redis.del(RedisKeys.outbox(sale.id()));
        redis.xadd(RedisKeys.outbox(sale.id()), Map.of(good.id().value(), ReservationRecord.of(good).encode(),
                ReservationId.of(sale.id(), "broken").value(), "not a record"));

        assertThat(outbox.readNew(sale.id(), "r1", 10)).isEmpty();
        assertThat(fixture.pending(sale.id())).as("left for an operator, with the reservation beside it").isEqualTo(1);
    }
}
