package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.AcceptedRequestsFilter;
import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.application.order.port.out.EventPosition;
import io.flashsale.application.order.port.out.HotStoreSettlementPort;
import io.flashsale.application.order.port.out.HotStoreSettlementPort.HeldStatus;
import io.flashsale.application.order.port.out.OutboxBacklog;
import io.flashsale.application.order.port.out.OutboxEntry;
import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.application.order.port.out.ReservationOutboxPort;
import io.flashsale.application.reconciliation.port.out.RelayedEventsPort;
import io.flashsale.application.reservation.port.out.AcceptedRequestsSnapshotPort;
import io.flashsale.application.sale.port.out.HotStoreArchivePort;
import io.flashsale.application.sale.port.out.HotStoreSaleTermsPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import io.flashsale.domain.stock.StockLedger;
import io.lettuce.core.Range;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.ByteArrayOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

import static io.flashsale.adapter.redis.SlicedSale.THREE;
import static io.flashsale.adapter.redis.SlicedSale.buyerAt;
import static io.flashsale.adapter.redis.SlicedSale.token;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * Everything after the reserve for a sale in slices (ADR 109), through one hot store's ports as the application holds
 * them, on the real Redis (standalone, or the 3-master cluster, each slice on its own master): the relay reads every
 * slice's outbox and acknowledges each entry in its own, the relayed-events view, the settlement, the pause and the
 * window, the archive and the filter of accepted request keys each act on the slices the sale or the ids name. A sale
 * of three slices ({@link SlicedSale}), 300 units of one SKU (100 a slice), 2 a buyer; each reservation's id names its
 * buyer's home slice.
 */
@Timeout(120)
class RedisSlicedPipelineIT {

    private static final SkuId HOT = new SkuId("hot");
    private static final Duration MIN_IDLE = Duration.ofMillis(200);
    private static final String REGISTRY = SharedRedis.newRegistry();
    private static final RedisHotStore STORE = RedisHotStore.connect(SharedRedis.settings(Duration.ofSeconds(10)),
            REGISTRY);
    private static final RedisHotStore.ReservationRoles RESERVATIONS = STORE.reservationRoles();
    private static final ReservationOutboxPort OUTBOX = STORE.outbox();
    private static final RelayedEventsPort RELAYED = STORE.reconciliationRoles(0).relayedEvents();
    private static final HotStoreSettlementPort SETTLEMENT = STORE.settlement();
    private static final HotStoreSaleTermsPort TERMS = STORE.saleTerms();
    private static final HotStoreArchivePort ARCHIVE = STORE.archive();

    private final RedisClusterCommands<String, String> redis = SharedRedis.commands();
    private final SliceFixture fixture = new SliceFixture(redis);
    private final Activity sale = sale(SlicedSale.newId("sp"), THREE);
    private final List<SaleSlice> slices = SliceFixture.slicesOf(sale);
    private final List<Activity> others = new ArrayList<>();

    @AfterEach
    void forget() {
        fixture.forget(sale);
        others.forEach(fixture::forget);
        redis.srem(REGISTRY, sale.id().value());
        others.forEach(other -> redis.srem(REGISTRY, other.id().value()));
    }

    @AfterAll
    static void close() {
        SharedRedis.forgetRegistry(REGISTRY);
        STORE.close();
    }

    @Test
    void givenReservationsInEverySlice_thenOneReadGivesEachOnceUniquelyIdentified_andAcknowledgingEmptiesAll() {
        warmUp();
        List<Reservation> made = reservedInEverySlice(4);

        List<OutboxEntry> read = OUTBOX.readNew(sale.id(), "r1", 100);

        assertThat(read).extracting(OutboxEntry::reservation).containsExactlyInAnyOrderElementsOf(made);
        assertThat(read).extracting(OutboxEntry::entryId).as("an entry a reserve call here, each id its own")
                .doesNotHaveDuplicates();
        for (SaleSlice slice : slices) {
            assertThat(read).filteredOn(entry -> entry.reservation().id().slice().index() == slice.index())
                    .extracting(OutboxEntry::entryId).as("slice %d's entries", slice.index())
                    .containsExactlyElementsOf(streamIds(slice).stream()
                            .map(streamId -> OutboxEntryIds.of(slice, streamId)).toList());
        }
        assertThat(read).filteredOn(entry -> entry.reservation().id().slice().index() == 0)
                .extracting(OutboxEntry::entryId).as("slice 0's ids are its stream's")
                .allSatisfy(entryId -> assertThat(entryId).matches("\\d+-\\d+"));
        assertThat(OUTBOX.readNew(sale.id(), "r1", 100)).as("each once").isEmpty();
        assertThat(OUTBOX.hasEntriesWaiting(sale.id())).as("pending with r1").isTrue();

        List<EventPosition> positions = IntStream.range(0, read.size())
                .mapToObj(i -> new EventPosition(i % 3, 1_000 + i)).toList();
        OUTBOX.acknowledge(sale.id(), read, positions);

        for (SaleSlice slice : slices) {
            assertThat(redis.xpending(RedisKeys.outbox(slice), RedisKeys.OUTBOX_GROUP).getCount())
                    .as("slice %d pending", slice.index()).isZero();
            assertThat(redis.xlen(RedisKeys.outbox(slice))).as("slice %d trimmed", slice.index()).isZero();
        }
        Map<ReservationId, EventPosition> recorded = new HashMap<>();
        for (int i = 0; i < read.size(); i++) {
            recorded.put(read.get(i).reservation().id(), positions.get(i));
        }
        assertThat(RELAYED.positions(sale.id(), ids(made))).as("each in its slice's records")
                .containsExactlyInAnyOrderEntriesOf(recorded);
        assertThat(RELAYED.unrelayed(sale.id(), ids(made))).isEmpty();
        assertThat(RELAYED.outboxDrained(sale.id())).isTrue();
        assertThat(OUTBOX.hasEntriesWaiting(sale.id())).isFalse();
        assertThat(OUTBOX.backlog(sale.id())).isEqualTo(OutboxBacklog.EMPTY);
    }

    @Test
    void givenEverySliceBusy_thenAReadOfMaxTakesFromEachSlice_andReadsInTurnGiveEveryReservationOnce() {
        warmUp();
        List<Reservation> made = reservedInEverySlice(5);

        List<OutboxEntry> first = OUTBOX.readNew(sale.id(), "r1", 3);

        assertThat(first).hasSize(3);
        assertThat(first).extracting(entry -> entry.reservation().id().slice().index()).as("one from each slice")
                .containsExactlyInAnyOrder(0, 1, 2);
        List<OutboxEntry> all = new ArrayList<>(first);
        for (int reads = 0; reads < 20; reads++) {
            List<OutboxEntry> next = OUTBOX.readNew(sale.id(), "r1", 2);
            assertThat(next.size()).as("at most max").isLessThanOrEqualTo(2);
            all.addAll(next);
        }
        assertThat(all).extracting(OutboxEntry::reservation).containsExactlyInAnyOrderElementsOf(made);
        OUTBOX.acknowledge(sale.id(), all);
        assertThat(RELAYED.outboxDrained(sale.id())).isTrue();
    }

    @Test
    void givenASliceOneEntryLeftPending_thenAnotherRelayClaimsItOnceStale_andAcknowledgesItInItsSlice()
            throws InterruptedException {
        warmUp();
        Reservation atZero = reserved(buyerAt(0, "ann"), "k1");
        Reservation atOne = reserved(buyerAt(1, "bob"), "k1");
        List<OutboxEntry> read = OUTBOX.readNew(sale.id(), "dead-relay", 100);
        OUTBOX.acknowledge(sale.id(), read.stream().filter(entry -> entry.reservation().equals(atZero)).toList());
        assertThat(RELAYED.unrelayed(sale.id(), List.of(atZero.id(), atOne.id()))).containsExactly(atOne.id());

        Thread.sleep(MIN_IDLE.toMillis() + 100);
        List<OutboxEntry> claimed = OUTBOX.claimStale(sale.id(), "r2", MIN_IDLE, 100);

        assertThat(claimed).extracting(OutboxEntry::reservation).containsExactly(atOne);
        assertThat(claimed.getFirst().entryId()).startsWith("1of3:")
                .isEqualTo(read.stream().filter(entry -> entry.reservation().equals(atOne)).findFirst()
                        .orElseThrow().entryId());
        assertThat(redis.xpending(RedisKeys.outbox(slices.get(1)), RedisKeys.OUTBOX_GROUP)
                .getConsumerMessageCount()).containsExactly(entry("r2", 1L));
        OUTBOX.acknowledge(sale.id(), claimed);
        assertThat(OUTBOX.claimStale(sale.id(), "r3", Duration.ZERO, 100)).isEmpty();
        assertThat(RELAYED.outboxDrained(sale.id())).isTrue();
    }

    @Test
    void givenAnEntryInSliceTwoOnly_thenEveryViewOfTheOutboxSeesIt_andAReDriveGoesBackToSliceTwo() {
        warmUp();
        assertThat(OUTBOX.hasEntriesWaiting(sale.id())).as("no outbox yet").isFalse();
        assertThat(OUTBOX.backlog(sale.id())).isEqualTo(OutboxBacklog.EMPTY);
        Instant before = Instant.now();
        Reservation atTwo = reserved(buyerAt(2, "cat"), "k1");

        assertThat(OUTBOX.hasEntriesWaiting(sale.id())).isTrue();
        OutboxBacklog backlog = OUTBOX.backlog(sale.id());
        assertThat(backlog.depth()).isEqualTo(1);
        assertThat(backlog.oldestWaiting()).isBetween(before.minusSeconds(5), Instant.now().plusSeconds(5));
        assertThat(RELAYED.outboxDrained(sale.id())).isFalse();
        assertThat(RELAYED.unrelayed(sale.id(), List.of(atTwo.id()))).containsExactly(atTwo.id());

        List<OutboxEntry> read = OUTBOX.readNew(sale.id(), "r1", 100);
        OUTBOX.acknowledge(sale.id(), read, List.of(new EventPosition(2, 42)));

        assertThat(OUTBOX.hasEntriesWaiting(sale.id())).isFalse();
        assertThat(OUTBOX.backlog(sale.id())).isEqualTo(OutboxBacklog.EMPTY);
        assertThat(RELAYED.outboxDrained(sale.id())).isTrue();
        assertThat(RELAYED.positions(sale.id(), List.of(atTwo.id())))
                .containsExactly(entry(atTwo.id(), new EventPosition(2, 42)));

        assertThat(RELAYED.redrive(atTwo.id(), Optional.of(new EventPosition(2, 42)), Duration.ZERO))
                .isTrue();
        assertThat(redis.xlen(RedisKeys.outbox(slices.get(2)))).as("re-driven into its own slice").isEqualTo(1);
        assertThat(redis.exists(RedisKeys.outbox(slices.get(0)))).isZero();
        assertThat(RELAYED.outboxDrained(sale.id())).isFalse();
        List<OutboxEntry> again = OUTBOX.readNew(sale.id(), "r1", 100);
        assertThat(again).extracting(OutboxEntry::reservation).containsExactly(atTwo);
        OUTBOX.acknowledge(sale.id(), again);
        assertThat(RELAYED.outboxDrained(sale.id())).isTrue();
    }

    @Test
    void givenReservationsInSlicesOneAndTwo_whenSettledAndRestoredInOneBatch_thenOnlyThoseSlicesFiguresMove() {
        warmUp();
        BuyerId bob = buyerAt(1, "bob");
        BuyerId cat = buyerAt(2, "cat");
        Reservation atZero = reserved(buyerAt(0, "ann"), "k1");
        Reservation atOne = reserved(bob, "k1", 2);
        Reservation atTwo = reserved(cat, "k1");
        Reservation failedAtTwo = reserved(buyerAt(2, "dan"), "k1");

        assertThat(SETTLEMENT.statuses(sale.id(), List.of(atZero.id(), atOne.id(), atTwo.id())))
                .containsOnlyKeys(atZero.id(), atOne.id(), atTwo.id())
                .allSatisfy((id, held) -> assertThat(held.status()).isEqualTo(ReservationStatus.RESERVED));

        Map<ReservationId, ReservationStatus> settled = SETTLEMENT.settle(sale.id(),
                List.of(atOne.id(), atTwo.id()), List.of(failedAtTwo.id()));

        assertThat(settled).containsOnly(entry(atOne.id(), ReservationStatus.RESERVED),
                entry(atTwo.id(), ReservationStatus.RESERVED), entry(failedAtTwo.id(), ReservationStatus.RESERVED));
        assertThat(fixture.ledger(slices.get(0), HOT)).isEqualTo(new StockLedger(100, 1, 0));
        assertThat(fixture.ledger(slices.get(1), HOT)).isEqualTo(new StockLedger(100, 0, 2));
        assertThat(fixture.ledger(slices.get(2), HOT)).as("one sold, one failed and back")
                .isEqualTo(new StockLedger(100, 0, 1));
        assertThat(redis.hlen(RedisKeys.inFlight(slices.get(1)))).isZero();
        assertThat(SETTLEMENT.statuses(sale.id(), List.of(atZero.id(), failedAtTwo.id())))
                .containsOnly(entry(atZero.id(), new HeldStatus(ReservationStatus.RESERVED, null)),
                        entry(failedAtTwo.id(), new HeldStatus(ReservationStatus.FAILED, null)));

        Map<ReservationId, ReservationStatus> restored = SETTLEMENT.restore(sale.id(), List.of(
                new PendingRestore(atOne.id(), bob, atOne.requestId(), atOne.lines(), ReservationStatus.EXPIRED),
                new PendingRestore(atTwo.id(), cat, atTwo.requestId(), atTwo.lines(), ReservationStatus.CANCELLED)));

        assertThat(restored).containsOnly(entry(atOne.id(), ReservationStatus.ORDERED),
                entry(atTwo.id(), ReservationStatus.ORDERED));
        assertThat(fixture.ledger(slices.get(0), HOT)).isEqualTo(new StockLedger(100, 1, 0));
        assertThat(fixture.ledger(slices.get(1), HOT)).isEqualTo(StockLedger.of(100));
        assertThat(fixture.ledger(slices.get(2), HOT)).isEqualTo(StockLedger.of(100));
        assertThat(RESERVATIONS.hotPath().holdings(sale.id(), bob)).isEmpty();
        assertThat(RESERVATIONS.hotPath().holdings(sale.id(), cat)).isEmpty();
    }

    @Test
    void givenAPause_thenItReachesEverySlice_andAWindowMoveToo() {
        warmUp();
        BuyerId cat = buyerAt(2, "cat");

        assertThat(TERMS.applyPaused(sale.id(), true)).isTrue();

        assertThat(slices).extracting(slice -> redis.hget(RedisKeys.meta(slice), "paused")).containsOnly("1");
        assertThat(RESERVATIONS.hotPath().reserve(attempt(cat, "k1", 1))).as("in slice 2")
                .isInstanceOf(ReservationOutcome.Paused.class);
        assertThat(TERMS.applyPaused(sale.id(), false)).isTrue();
        assertThat(RESERVATIONS.hotPath().reserve(attempt(cat, "k1", 1)))
                .isInstanceOf(ReservationOutcome.Reserved.class);

        Instant later = Instant.now().plus(Duration.ofHours(1));
        assertThat(TERMS.applyWindow(sale.id(), later, later.plus(Duration.ofHours(1)))).isTrue();

        assertThat(slices).extracting(slice -> redis.hget(RedisKeys.meta(slice), "startsAtSec"))
                .containsOnly(Long.toString(later.getEpochSecond()));
        assertThat(RESERVATIONS.hotPath().reserve(attempt(buyerAt(2, "dan"), "k1", 1)))
                .isInstanceOf(ReservationOutcome.NotStarted.class);
        assertThat(TERMS.applyWindow(sale.id(), sale.startsAt(), sale.endsAt())).isTrue();
        assertThat(RESERVATIONS.hotPath().reserve(attempt(buyerAt(2, "dan"), "k1", 1)))
                .isInstanceOf(ReservationOutcome.Reserved.class);
    }

    @Test
    void givenTheSaleAskedForHereBeforeAnotherInstanceLoadedIt_thenAPauseStillReachesEverySlice() {
        assertThat(RESERVATIONS.hotPath().slices(sale.id())).as("not loaded yet: one, for a moment")
                .isEqualTo(SaleSlices.ONE);
        SharedRedis.adapter().warmUp(sale);

        assertThat(TERMS.applyPaused(sale.id(), true)).isTrue();

        assertThat(slices).extracting(slice -> redis.hget(RedisKeys.meta(slice), "paused")).containsOnly("1");
        assertThat(RESERVATIONS.hotPath().slices(sale.id())).as("the count read for the pause, known to all here")
                .isEqualTo(THREE);
        SharedRedis.forget(sale.id());
    }

    @Test
    void givenASliceNotLoaded_thenTheTermsReachTheOthers_andTheAnswerSaysNotEveryOne() {
        fixture.warmUp(slices.get(1), sale);
        fixture.warmUp(slices.get(2), sale);
        fixture.warmUp(slices.get(0), sale);
        fixture.forget(slices.get(1));

        assertThat(TERMS.applyPaused(sale.id(), true)).isFalse();

        assertThat(redis.hget(RedisKeys.meta(slices.get(0)), "paused")).isEqualTo("1");
        assertThat(redis.hget(RedisKeys.meta(slices.get(2)), "paused")).isEqualTo("1");
        assertThat(redis.exists(RedisKeys.meta(slices.get(1)))).as("nothing made of a slice not loaded").isZero();
    }

    @Test
    void givenAnEndedSaleInSlices_thenTheArchiveCountsEverySlice_andDeletesEveryKeyOfItThenItsRegistration() {
        warmUp();
        Reservation atOne = reserved(buyerAt(1, "bob"), "k1");
        Reservation atTwo = reserved(buyerAt(2, "cat"), "k1");
        Reservation cancelled = reserved(buyerAt(2, "dan"), "k1");
        assertThat(RESERVATIONS.transitions().release(cancelled.id(), Instant.now())).isTrue();

        assertThat(ARCHIVE.reservedCount(sale.id())).isEqualTo(2);
        assertThat(ARCHIVE.cancelledReservations(sale.id())).containsExactly(cancelled.id());
        assertThat(ARCHIVE.delete(sale.id())).as("the outboxes are not drained").isFalse();
        assertThat(RESERVATIONS.transitions().confirm(atOne.id())).isTrue();
        assertThat(RESERVATIONS.transitions().confirm(atTwo.id())).isTrue();
        assertThat(ARCHIVE.reservedCount(sale.id())).isZero();
        relayEverything();
        List<String> keys = everyKey();
        assertThat(keys.stream().filter(key -> redis.exists(key) == 1)).as("keys there before").isNotEmpty();

        assertThat(ARCHIVE.delete(sale.id())).isTrue();

        assertThat(keys).allSatisfy(key -> assertThat(redis.exists(key)).as(key).isZero());
        assertThat(redis.sismember(REGISTRY, sale.id().value())).isFalse();
        assertThat(ARCHIVE.delete(sale.id())).as("deleted already").isTrue();
    }

    @Test
    void givenADeleteCutShortAfterSliceTwo_thenARepeatFinishesIt() {
        warmUp();
        reserved(buyerAt(2, "cat"), "k1");
        reserved(buyerAt(1, "bob"), "k1");
        relayEverything();
        List<String> keys = everyKey();
        // What a delete leaves when it stops after slice 2's step: slice 2's keys gone, its buckets still to drop.
        Long drained = LuaScript.load(redis, "archive").run(redis, ScriptOutputType.INTEGER,
                RedisActivityArchive.scriptKeys(slices.get(2)), RedisKeys.OUTBOX_GROUP);
        assertThat(drained).isEqualTo(1L);
        assertThat(redis.exists(RedisKeys.requestsDrop(slices.get(2)))).as("the drop left to finish").isOne();
        assertThat(redis.exists(RedisKeys.meta(slices.get(0)))).isOne();
        assertThat(redis.sismember(REGISTRY, sale.id().value())).isTrue();

        assertThat(ARCHIVE.delete(sale.id())).isTrue();

        assertThat(keys).allSatisfy(key -> assertThat(redis.exists(key)).as(key).isZero());
        assertThat(redis.sismember(REGISTRY, sale.id().value())).isFalse();
    }

    @Test
    void givenSliceOnesOutboxNotDrained_thenTheDeleteStopsBeforeSliceZero_andARepeatOnceDrainedFinishesIt() {
        warmUp();
        reserved(buyerAt(2, "cat"), "k1");
        relayEverything();
        reserved(buyerAt(1, "bob"), "k1");
        List<String> keys = everyKey();

        assertThat(ARCHIVE.delete(sale.id())).isFalse();

        assertThat(redis.exists(RedisKeys.meta(slices.get(2)))).as("slice 2 went first").isZero();
        assertThat(redis.exists(RedisKeys.meta(slices.get(1)))).isOne();
        assertThat(redis.hget(RedisKeys.meta(slices.get(0)), RedisKeys.META_SLICES)).as("the count kept")
                .isEqualTo("3");
        assertThat(redis.sismember(REGISTRY, sale.id().value())).isTrue();

        relayEverything();
        assertThat(ARCHIVE.delete(sale.id())).isTrue();

        assertThat(keys).allSatisfy(key -> assertThat(redis.exists(key)).as(key).isZero());
        assertThat(redis.sismember(REGISTRY, sale.id().value())).isFalse();
    }

    @Test
    void givenAKeyedRequestAcceptedInSliceTwo_thenTheSnapshotMayHoldIt_lookingInItsBuyersHomeSlice() {
        warmUp();
        BuyerId cat = buyerAt(2, "cat");
        Reservation accepted = reserved(cat, "cat-key");

        AcceptedRequestsSnapshotPort snapshot = STORE.acceptedRequests().read(sale.id()).orElseThrow();

        assertThat(snapshot.mayHold(cat, accepted.requestId())).isTrue();
        assertThat(filterOf(slices.get(0)).mayHold(cat, accepted.requestId()))
                .as("slice 0's filter knows nothing of it").isFalse();
        assertThat(snapshot.mayHold(cat, new RequestId("never-sent"))).isFalse();
        assertThat(snapshot.mayHold(buyerAt(1, "bob"), accepted.requestId())).isFalse();
    }

    @Test
    void givenASaleOfOneSlice_thenItsEntryIdsAreItsStreamIds_andItsPipelineIsAsBefore() {
        Activity single = sale(SlicedSale.newId("sp1"), SaleSlices.ONE);
        others.add(single);
        RESERVATIONS.hotPath().warmUp(single);
        List<Reservation> made = new ArrayList<>();
        for (String buyer : List.of("ann", "bob", "cat")) {
            var request = new ReservationRequest(ReservationId.of(single.id(), token()), new BuyerId(buyer),
                    new RequestId("k1"), List.of(new ReservationLine(HOT, 1)), Instant.now());
            made.add(((ReservationOutcome.Reserved) RESERVATIONS.hotPath().reserve(request)).reservation());
        }
        SaleSlice only = RedisKeys.sliceZero(single.id());

        List<OutboxEntry> read = OUTBOX.readNew(single.id(), "r1", 100);

        assertThat(read).extracting(OutboxEntry::reservation).containsExactlyElementsOf(made);
        assertThat(read).extracting(OutboxEntry::entryId).containsExactlyElementsOf(streamIds(only));
        assertThat(OUTBOX.backlog(single.id()).depth()).isEqualTo(3);
        OUTBOX.acknowledge(single.id(), read, List.of(new EventPosition(0, 1), new EventPosition(0, 2),
                new EventPosition(0, 3)));
        assertThat(RELAYED.positions(single.id(), ids(made))).hasSize(3);
        assertThat(RELAYED.outboxDrained(single.id())).isTrue();
        assertThat(SETTLEMENT.settle(single.id(), ids(made), List.of())).hasSize(3);
        assertThat(fixture.ledger(only, HOT)).isEqualTo(new StockLedger(300, 0, 3));
        assertThat(ARCHIVE.delete(single.id())).isTrue();
        assertThat(redis.exists(RedisKeys.meta(single.id()))).isZero();
    }

    // ---- helpers ----

    private void warmUp() {
        RESERVATIONS.hotPath().warmUp(sale);
        assertThat(RESERVATIONS.hotPath().slices(sale.id())).isEqualTo(THREE);
    }

    /** {@code perSlice} buyers in each slice, one unit each, each a reserve call of its own. */
    private List<Reservation> reservedInEverySlice(int perSlice) {
        List<Reservation> made = new ArrayList<>();
        for (SaleSlice slice : slices) {
            for (int b = 0; b < perSlice; b++) {
                made.add(reserved(buyerAt(slice.index(), "b" + b + "-"), "k1"));
            }
        }
        return made;
    }

    private Reservation reserved(BuyerId buyer, String requestId) {
        return reserved(buyer, requestId, 1);
    }

    private Reservation reserved(BuyerId buyer, String requestId, int units) {
        Reservation reservation = SlicedSale.reserved(RESERVATIONS.hotPath(), attempt(buyer, requestId, units));
        assertThat(reservation.id().slice().index()).isEqualTo(THREE.homeOf(buyer));
        return reservation;
    }

    /** The buyer's attempt at this test's sale, its id naming the buyer's home slice. */
    private ReservationRequest attempt(BuyerId buyer, String requestId, int units) {
        return SlicedSale.attempt(sale, buyer, requestId, Instant.now(), new ReservationLine(HOT, units));
    }

    /** Reads and acknowledges until every slice's outbox is drained. */
    private void relayEverything() {
        for (int reads = 0; reads < 100; reads++) {
            List<OutboxEntry> read = OUTBOX.readNew(sale.id(), "relay", 100);
            if (read.isEmpty()) {
                break;
            }
            OUTBOX.acknowledge(sale.id(), read);
        }
        assertThat(RELAYED.outboxDrained(sale.id())).isTrue();
    }

    /** Every key of every slice, the request index's buckets and drop markers among them. */
    private List<String> everyKey() {
        List<String> keys = new ArrayList<>();
        for (SaleSlice slice : slices) {
            keys.addAll(RedisKeys.archiveKeys(slice));
            keys.addAll(RedisKeys.requestKeys(slice, RedisRequestIndex.buckets(redis, slice)));
            keys.add(RedisKeys.requestsDrop(slice));
        }
        return keys;
    }

    private List<String> streamIds(SaleSlice slice) {
        return redis.xrange(RedisKeys.outbox(slice), Range.create("-", "+")).stream()
                .map(StreamMessage::getId).toList();
    }

    private AcceptedRequestsFilter filterOf(SaleSlice slice) {
        byte[] value = redis.dispatch(CommandType.GET, new ByteArrayOutput<>(StringCodec.UTF8),
                new CommandArgs<>(StringCodec.UTF8).addKey(RedisKeys.acceptedRequests(slice)));
        return AcceptedRequestsFilter.of(value).orElseThrow();
    }

    private static List<ReservationId> ids(List<Reservation> reservations) {
        return reservations.stream().map(Reservation::id).toList();
    }

    private static Activity sale(String id, SaleSlices slices) {
        return SlicedSale.sale(id, "sliced pipeline", Instant.now(), slices, ActivityItem.of(HOT.value(), 300));
    }
}
