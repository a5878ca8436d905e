package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.application.order.port.out.OutboxEntry;
import io.flashsale.application.reconciliation.port.out.RebuildStart;
import io.flashsale.application.reconciliation.port.out.SliceRebuildPort;
import io.flashsale.application.slice.port.out.SliceStockPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.OrderRefusal;
import io.flashsale.domain.reconciliation.SkuRebuild;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import io.flashsale.domain.slice.StockTransfer;
import io.flashsale.domain.stock.StockLedger;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.flashsale.adapter.redis.SlicedSale.THREE;
import static io.flashsale.adapter.redis.SlicedSale.buyerAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The rebuild of one lost slice of a sale in slices (ADR 111) on the real Redis, standalone or the cluster: the whole
 * sale's begin, pages and finish over that slice's keys alone. Until it finishes the slice answers neither buyers nor
 * stock transfers; then it sells from its orders and its allotment, names the sale's slice count as a warm-up does,
 * and the other slices were never touched. A sale of three slices ({@link SlicedSale}): PLAIN 30 units (10 a slice),
 * SPLIT 31 units in 4 segments (11, 10, 10), 2 a buyer; slice 1 is the one lost.
 */
@Timeout(60)
class RedisSliceRebuildIT {

    private static final SkuId PLAIN = new SkuId("plain");
    private static final SkuId SPLIT = new SkuId("split");
    private static final Instant NOW = Instant.now();
    private static final Instant SINCE = Instant.parse("2030-01-01T00:00:00Z");

    private final RedisClusterCommands<String, String> redis = SharedRedis.commands();
    private final RedisStockReservationAdapter adapter = SharedRedis.adapter();
    private final RedisHotStoreRebuild hotStoreRebuild = SharedRedis.rebuild();
    private final SliceRebuildPort rebuild = hotStoreRebuild;
    private final SliceStockPort sliceStock = new RedisSliceStock(redis, activityId -> { });
    private final SliceFixture fixture = new SliceFixture(redis);
    private final Activity sale = sale(SlicedSale.newId("rsb"), THREE);
    private final List<SaleSlice> slices = SliceFixture.slicesOf(sale);
    private final SaleSlice one = slices.get(1);
    /** Slice 1's allotment when rebuilt: what transfers moved since the warm-up made its share 10 and 10. */
    private final List<SkuRebuild> allotment = List.of(new SkuRebuild(PLAIN, 12, 0, Map.of(), Set.of()),
            new SkuRebuild(SPLIT, 9, 0, Map.of(), Set.of()));
    private final List<Activity> others = new ArrayList<>();

    @AfterEach
    void forget() {
        fixture.forget(sale);
        SharedRedis.forget(sale.id());
        others.forEach(other -> {
            fixture.forget(other);
            SharedRedis.forget(other.id());
        });
    }

    @Test
    void givenOneSliceLost_whenRebuiltFromItsOrders_thenItSellsFromThemAndItsAllotment_andNoOtherSliceIsTouched() {
        adapter.warmUp(sale);
        BuyerId bob = buyerAt(1, "bob");
        BuyerId dan = buyerAt(1, "dan");
        BuyerId fay = buyerAt(1, "fay");
        BuyerId eve = buyerAt(1, "eve");
        reserved(buyerAt(0, "ann"), line(PLAIN, 1));
        reserved(buyerAt(2, "cat"), line(SPLIT, 1));
        Reservation bobs = reserved(bob, line(PLAIN, 2));
        assertThat(adapter.confirm(bobs.id())).isTrue();
        Reservation dans = reserved(dan, line(PLAIN, 1), line(SPLIT, 1));
        Reservation fays = reserved(fay, line(SPLIT, 1));
        Map<String, Map<String, String>> othersBefore = hashesOf(slices.get(0), slices.get(2));
        // Ordered in the database of record before an earlier loss: only its order knows it.
        Order evesOnlyInMySql = asOrder(new Reservation(ReservationId.of(one, SlicedSale.token()), sale.id(), eve,
                new RequestId("k1"), List.of(line(PLAIN, 1)), ReservationStatus.RESERVED, NOW),
                ReservationStatus.ORDERED);

        fixture.forget(one);

        assertThat(attempt(dan, "lost", line(PLAIN, 1))).isEqualTo(new ReservationOutcome.NotReady());
        RebuildStart.Started started = begin(one);
        assertThat(started.after()).isEmpty();
        assertThat(rebuild.rebuildPage(one, started.rebuildId(), Optional.empty(), bobs.id(),
                List.of(asOrder(bobs, ReservationStatus.ORDERED)))).isTrue();
        assertThat(attempt(dan, "mid-rebuild", line(PLAIN, 1))).as("a half-done slice is never served")
                .isEqualTo(new ReservationOutcome.NotReady());
        assertThat(rebuild.rebuildPage(one, started.rebuildId(), Optional.of(bobs.id()), evesOnlyInMySql.id(),
                List.of(asOrder(dans, ReservationStatus.ORDERED), asOrder(fays, ReservationStatus.EXPIRED),
                        evesOnlyInMySql))).isTrue();
        assertThat(rebuild.finishRebuild(sale, one, started.rebuildId(), allotment, List.of())).isTrue();

        assertThat(fixture.ledger(one, PLAIN)).as("the allotment, the ordered units sold")
                .isEqualTo(new StockLedger(12, 0, 4));
        assertThat(fixture.ledger(one, SPLIT)).as("an expired order holds nothing").isEqualTo(new StockLedger(9, 0, 1));
        assertThat(fixture.segments(one, SPLIT)).containsExactly(2L, 2L, 2L, 2L);
        assertThat(fixture.field(one, RedisKeys.stockField(PLAIN, "total"))).isEqualTo("12");
        assertThat(redis.hget(RedisKeys.meta(one), RedisKeys.META_SLICES)).as("as a warm-up writes it").isEqualTo("3");
        assertThat(adapter.holdings(sale.id(), bob)).isEqualTo(Map.of(PLAIN, 2L));
        assertThat(adapter.holdings(sale.id(), dan)).isEqualTo(Map.of(PLAIN, 1L, SPLIT, 1L));
        assertThat(adapter.holdings(sale.id(), fay)).isEmpty();
        assertThat(attempt(bob, "more", line(PLAIN, 1))).as("the rebuilt order counts against the limit")
                .isEqualTo(new ReservationOutcome.LimitExceeded(PLAIN, SlicedSale.LIMIT, 2));
        assertThat(attempt(bob, bobs.requestId().value(), line(PLAIN, 1))).as("a keyed retry of a rebuilt order")
                .isEqualTo(new ReservationOutcome.Settled(bobs.id()));
        assertThat(attempt(fay, fays.requestId().value(), line(SPLIT, 1)))
                .isEqualTo(new ReservationOutcome.Settled(fays.id()));
        assertThat(attempt(eve, "k1", line(PLAIN, 1))).isEqualTo(new ReservationOutcome.Settled(evesOnlyInMySql.id()));
        assertThat(redis.hget(RedisKeys.requests(one), RedisKeys.requestField(bob, bobs.requestId())))
                .as("the index keeps the token alone, as reserve.lua writes it")
                .isEqualTo(RedisKeys.requestValue(bobs.id(), bobs.requestId()));
        assertThat(attempt(dan, "fresh", line(PLAIN, 1))).isInstanceOf(ReservationOutcome.Reserved.class);
        assertThat(fixture.ledger(one, PLAIN)).isEqualTo(new StockLedger(12, 1, 4));
        assertThat(hashesOf(slices.get(0), slices.get(2))).as("slices 0 and 2 untouched").isEqualTo(othersBefore);
        assertThat(redis.sismember(SharedRedis.registry(), sale.id().value())).isTrue();
        assertThat(redis.hkeys(RedisKeys.meta(one))).doesNotContain("rebuilding", "rebuildCursor");
    }

    @Test
    void givenASaleOfOneSlice_whenRebuiltAsTheActivityOrAsItsSliceZero_thenItsMetaNamesNoCount_andItSells() {
        Activity single = sale(SlicedSale.newId("rsb1"), SaleSlices.ONE);
        others.add(single);
        SaleSlice only = new SaleSlice(single.id(), 0, SaleSlices.ONE);
        BuyerId ann = new BuyerId("ann");
        Order annsOrder = asOrder(new Reservation(ReservationId.of(only, SlicedSale.token()), single.id(), ann,
                new RequestId("k1"), List.of(line(PLAIN, 2)), ReservationStatus.RESERVED, NOW),
                ReservationStatus.ORDERED);
        List<SkuRebuild> totals = List.of(new SkuRebuild(PLAIN, 30, 0, Map.of(), Set.of()),
                new SkuRebuild(SPLIT, 31, 0, Map.of(), Set.of()));

        var asActivity = (RebuildStart.Started) hotStoreRebuild.beginRebuild(single.id(), SINCE);
        assertThat(hotStoreRebuild.rebuildPage(single.id(), asActivity.rebuildId(), Optional.empty(), annsOrder.id(),
                List.of(annsOrder))).isTrue();
        assertThat(hotStoreRebuild.finishRebuild(single, asActivity.rebuildId(), totals)).isTrue();

        assertThat(redis.hexists(RedisKeys.meta(single.id()), RedisKeys.META_SLICES)).isFalse();
        assertThat(fixture.ledger(only, PLAIN)).isEqualTo(new StockLedger(30, 0, 2));
        assertThat(adapter.reserve(SlicedSale.attempt(single, ann, "k1", NOW, line(PLAIN, 1))))
                .isEqualTo(new ReservationOutcome.Settled(annsOrder.id()));

        fixture.forget(only);
        RebuildStart.Started asSlice = begin(only);
        assertThat(rebuild.rebuildPage(only, asSlice.rebuildId(), Optional.empty(), annsOrder.id(),
                List.of(annsOrder))).isTrue();
        assertThat(rebuild.finishRebuild(single, only, asSlice.rebuildId(), totals, List.of())).isTrue();

        assertThat(redis.hexists(RedisKeys.meta(only), RedisKeys.META_SLICES)).isFalse();
        assertThat(fixture.ledger(only, PLAIN)).isEqualTo(new StockLedger(30, 0, 2));
        assertThat(adapter.reserve(SlicedSale.attempt(single, ann, "k1", NOW, line(PLAIN, 1))))
                .isEqualTo(new ReservationOutcome.Settled(annsOrder.id()));
        SlicedSale.reserved(adapter, SlicedSale.attempt(single, new BuyerId("bob"), "k2", NOW, line(SPLIT, 1)));
    }

    @Test
    void givenASliceOfAnotherCount_thenTheFinishIsRefusedAndWritesNothing() {
        RebuildStart.Started started = begin(one);
        SaleSlice ofTwo = new SaleSlice(sale.id(), 1, new SaleSlices(2));

        assertThatThrownBy(() -> rebuild.finishRebuild(sale, ofTwo, started.rebuildId(), allotment, List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(redis.hget(RedisKeys.meta(one), RedisKeys.META_READY)).isNull();
    }

    @Test
    void givenALoadedSlice_thenItsRebuildDoesNotBegin() {
        adapter.warmUp(sale);

        for (SaleSlice slice : slices) {
            assertThat(rebuild.beginRebuild(slice, SINCE)).as("slice %d", slice.index())
                    .isEqualTo(new RebuildStart.Loaded());
        }
    }

    @Test
    void givenReservationsStillInTheSlicesOutbox_whenItsRebuildBegins_thenItWaitsAndDropsNothing() {
        adapter.warmUp(sale);
        Reservation waiting = reserved(buyerAt(1, "bob"), line(PLAIN, 1));
        redis.del(RedisKeys.meta(one));

        assertThat(rebuild.beginRebuild(one, SINCE)).isEqualTo(new RebuildStart.OutboxPending());

        assertThat(adapter.findReservation(waiting.id())).isPresent();
        assertThat(redis.xlen(RedisKeys.outbox(one))).isEqualTo(1);
        var outbox = new RedisReservationOutbox(redis, SharedRedis.registry());
        List<OutboxEntry> read = outbox.readNew(sale.id(), "relay-1", 100);
        assertThat(read).extracting(entry -> entry.reservation().id()).contains(waiting.id());
        outbox.acknowledge(sale.id(), read);
        assertThat(rebuild.beginRebuild(one, SINCE)).isInstanceOf(RebuildStart.Started.class);
        assertThat(adapter.findReservation(waiting.id())).as("dropped with what the loss left").isEmpty();
    }

    @Test
    void givenARebuildTakenOver_thenTheStaleIdsPageAndFinishWriteNothing_andTheTakerFinishes() {
        adapter.warmUp(sale);
        BuyerId bob = buyerAt(1, "bob");
        Reservation bobs = reserved(bob, line(PLAIN, 2));
        Order bobsOrder = asOrder(bobs, ReservationStatus.ORDERED);
        fixture.forget(one);
        RebuildStart.Started stale = begin(one);
        assertThat(rebuild.beginRebuild(one, SINCE)).as("its lease still held")
                .isEqualTo(new RebuildStart.Rebuilding());
        redis.hset(RedisKeys.meta(one), "rebuildBeat", Long.toString(Instant.now().getEpochSecond() - 60));
        RebuildStart.Started taker = begin(one);

        assertThat(rebuild.rebuildPage(one, stale.rebuildId(), Optional.empty(), bobsOrder.id(), List.of(bobsOrder)))
                .isFalse();
        assertThat(rebuild.finishRebuild(sale, one, stale.rebuildId(), allotment, List.of())).isFalse();
        assertThat(redis.exists(RedisKeys.stock(one), RedisKeys.holdings(one))).as("nothing written").isZero();
        assertThat(redis.hget(RedisKeys.meta(one), RedisKeys.META_READY)).isNull();

        assertThat(rebuild.rebuildPage(one, taker.rebuildId(), Optional.empty(), bobsOrder.id(), List.of(bobsOrder)))
                .isTrue();
        assertThat(rebuild.finishRebuild(sale, one, taker.rebuildId(), allotment, List.of())).isTrue();
        assertThat(fixture.ledger(one, PLAIN)).isEqualTo(new StockLedger(12, 0, 2));
        assertThat(rebuild.finishRebuild(sale, one, taker.rebuildId(), allotment, List.of())).as("a finished rebuild's id")
                .isFalse();
        assertThat(rebuild.beginRebuild(one, SINCE)).isEqualTo(new RebuildStart.Loaded());
    }

    @Test
    void givenALostSlice_thenNoTransferMovesItsStockUntilItsRebuildFinishes_andThenBothHalvesDo() {
        adapter.warmUp(sale);
        fixture.forget(one);

        assertThat(sliceStock.take(one, PLAIN, 31, 3)).isEmpty();
        assertThat(sliceStock.credit(one, PLAIN, 32, 3)).isFalse();
        RebuildStart.Started started = begin(one);
        assertThat(sliceStock.take(one, PLAIN, 33, 3)).as("while rebuilding").isEmpty();
        assertThat(sliceStock.credit(one, SPLIT, 34, 3)).isFalse();
        assertThat(fixture.field(one, RedisKeys.transferOutField(PLAIN, 33))).isNull();
        assertThat(fixture.field(one, RedisKeys.transferInField(SPLIT, 34))).isNull();
        assertThat(rebuild.finishRebuild(sale, one, started.rebuildId(), allotment, List.of())).isTrue();

        assertThat(sliceStock.take(one, PLAIN, 35, 5)).hasValue(5);
        assertThat(sliceStock.credit(slices.get(2), PLAIN, 35, 5)).isTrue();
        assertThat(sliceStock.take(slices.get(0), SPLIT, 36, 4)).hasValue(4);
        assertThat(sliceStock.credit(one, SPLIT, 36, 4)).isTrue();
        assertThat(fixture.ledger(one, PLAIN)).isEqualTo(new StockLedger(7, 0, 0));
        assertThat(fixture.ledger(one, SPLIT)).isEqualTo(new StockLedger(13, 0, 0));
        assertThat(fixture.ledger(slices.get(2), PLAIN)).isEqualTo(new StockLedger(15, 0, 0));
        assertThat(fixture.ledger(slices.get(0), SPLIT)).isEqualTo(new StockLedger(7, 0, 0));
    }

    @Test
    void givenTransfersTheDatabaseSaysTheSliceMade_thenTheFinishMarksThem_andTheirStepsLandingLateChangeNothing() {
        adapter.warmUp(sale);
        fixture.forget(one);
        RebuildStart.Started started = begin(one);
        List<StockTransfer> rows = List.of(
                // From slice 1: taken (3 given), done (2 given), and one it never gave (still REQUESTED).
                StockTransfer.requested(41, sale.id(), PLAIN, 1, 0, 3, NOW).taken(3),
                StockTransfer.requested(42, sale.id(), PLAIN, 1, 2, 2, NOW).taken(2).done(),
                StockTransfer.requested(43, sale.id(), SPLIT, 1, 2, 4, NOW),
                // To slice 1: done (5 got), and one still on its way (TAKEN).
                StockTransfer.requested(44, sale.id(), SPLIT, 0, 1, 5, NOW).taken(5).done(),
                StockTransfer.requested(45, sale.id(), PLAIN, 2, 1, 1, NOW).taken(1),
                // Neither side is slice 1.
                StockTransfer.requested(46, sale.id(), PLAIN, 0, 2, 1, NOW).taken(1).done());

        assertThat(rebuild.finishRebuild(sale, one, started.rebuildId(), allotment, rows)).isTrue();

        assertThat(fixture.field(one, RedisKeys.transferOutField(PLAIN, 41))).isEqualTo("3");
        assertThat(fixture.field(one, RedisKeys.transferOutField(PLAIN, 42))).isEqualTo("2");
        assertThat(fixture.field(one, RedisKeys.transferOutField(SPLIT, 43))).isNull();
        assertThat(fixture.field(one, RedisKeys.transferInField(SPLIT, 44))).isEqualTo("5");
        assertThat(fixture.field(one, RedisKeys.transferInField(PLAIN, 45))).isNull();
        assertThat(fixture.field(one, RedisKeys.transferOutField(PLAIN, 46))).isNull();
        assertThat(fixture.field(one, RedisKeys.transferInField(PLAIN, 46))).isNull();
        assertThat(sliceStock.take(one, PLAIN, 41, 3)).as("a late take of a marked transfer").hasValue(3);
        assertThat(sliceStock.credit(one, SPLIT, 44, 5)).as("a late credit of a marked transfer").isTrue();
        assertThat(fixture.ledger(one, PLAIN)).as("nothing moved by them").isEqualTo(new StockLedger(12, 0, 0));
        assertThat(fixture.ledger(one, SPLIT)).isEqualTo(new StockLedger(9, 0, 0));
        assertThat(sliceStock.credit(one, PLAIN, 45, 1)).as("the one on its way lands once").isTrue();
        assertThat(fixture.ledger(one, PLAIN)).isEqualTo(new StockLedger(13, 0, 0));
    }

    @Test
    void givenAMalformedTransferMark_thenTheFinishIsRefused_andNothingWritten() {
        adapter.warmUp(sale);
        fixture.forget(one);
        RebuildStart.Started started = begin(one);
        List<String> args = RedisHotStoreRebuild.finishArguments(sale, started.rebuildId(), allotment);
        args.addAll(List.of("1", "plain:total", "999"));

        assertThatThrownBy(() -> LuaScript.load(redis, "rebuild_finish").run(redis, ScriptOutputType.INTEGER,
                RedisHotStoreRebuild.finishKeys(one), args.toArray(String[]::new)))
                .hasMessageContaining("not a transfer mark");
        assertThat(rebuild.loaded(one)).isFalse();
        assertThat(fixture.field(one, RedisKeys.stockField(PLAIN, "total"))).isNull();
    }

    @Test
    void itTellsALoadedSliceFromALostOne_andADrainedOutboxFromOneWithEntriesWaiting() {
        adapter.warmUp(sale);
        assertThat(rebuild.loaded(one)).isTrue();
        assertThat(rebuild.outboxDrained(one)).isTrue();
        reserved(buyerAt(THREE, 1, "ann"), line(PLAIN, 1));

        assertThat(rebuild.outboxDrained(one)).as("an entry no relay has read").isFalse();
        assertThat(rebuild.outboxDrained(slices.get(0))).as("another slice's outbox").isTrue();
        fixture.forget(one);
        assertThat(rebuild.loaded(one)).isFalse();
        assertThat(rebuild.loaded(slices.get(2))).isTrue();
    }

    // ---- helpers ----

    private RebuildStart.Started begin(SaleSlice slice) {
        RebuildStart start = rebuild.beginRebuild(slice, SINCE);
        assertThat(start).isInstanceOf(RebuildStart.Started.class);
        return (RebuildStart.Started) start;
    }

    private Reservation reserved(BuyerId buyer, ReservationLine... lines) {
        return SlicedSale.reserved(adapter, SlicedSale.attempt(sale, buyer, "k1", NOW, lines));
    }

    private ReservationOutcome attempt(BuyerId buyer, String requestId, ReservationLine... lines) {
        return adapter.reserve(SlicedSale.attempt(sale, buyer, requestId, NOW, lines));
    }

    private static ReservationLine line(SkuId sku, int units) {
        return new ReservationLine(sku, units);
    }

    /** The order the database of record holds for a reservation, in the given status (times to the millisecond). */
    private static Order asOrder(Reservation reservation, ReservationStatus status) {
        Instant at = reservation.reservedAt().truncatedTo(ChronoUnit.MILLIS);
        boolean failed = status == ReservationStatus.FAILED;
        boolean closed = status != ReservationStatus.ORDERED && !failed;
        return new Order(reservation.id(), reservation.buyerId(), reservation.requestId(), reservation.lines(), status,
                failed ? OrderRefusal.OUT_OF_STOCK : null, at, at, failed ? null : at, closed ? at : null);
    }

    /** Each slice's meta, stock and holdings as they are now, by key. */
    private Map<String, Map<String, String>> hashesOf(SaleSlice... of) {
        Map<String, Map<String, String>> hashes = new HashMap<>();
        for (SaleSlice slice : of) {
            for (String key : List.of(RedisKeys.meta(slice), RedisKeys.stock(slice), RedisKeys.holdings(slice))) {
                hashes.put(key, redis.hgetall(key));
            }
        }
        return hashes;
    }

    private static Activity sale(String id, SaleSlices slices) {
        return SlicedSale.sale(id, "sliced rebuild", NOW, slices, ActivityItem.of(PLAIN.value(), 30),
                new ActivityItem(SPLIT, 31, null, 4));
    }
}
