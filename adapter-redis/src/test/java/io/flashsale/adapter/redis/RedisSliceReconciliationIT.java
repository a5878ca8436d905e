package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.adapter.redis.internal.ReadPace;
import io.flashsale.application.reconciliation.port.out.HoldingsSlice;
import io.flashsale.application.reconciliation.port.out.HotStoreSnapshot;
import io.flashsale.application.reconciliation.port.out.LedgerRepairResult;
import io.flashsale.application.reconciliation.port.out.SliceReconciliationPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.HotReservation;
import io.flashsale.domain.reconciliation.HotSkuSnapshot;
import io.flashsale.domain.reconciliation.LedgerFigures;
import io.flashsale.domain.reconciliation.LedgerRepair;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import io.flashsale.domain.stock.StockLedger;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.flashsale.adapter.redis.SlicedSale.THREE;
import static io.flashsale.adapter.redis.SlicedSale.buyerAt;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reconciliation of a sale in slices, slice by slice (ADR 110), on the real Redis: each slice's look (the atomic one
 * and the paged one), its holdings, its rolling audit and its repair act on that slice's keys alone, the records stock
 * transfers leave in a slice's stock hash never reach a look, and slice 0 of a sale of one slice is the activity's
 * reconciliation as before. A sale of three slices ({@link SlicedSale}): PLAIN 30 units (10 a slice), SPLIT 31 units
 * in 4 segments (11, 10, 10), 2 a buyer; each reservation's id names its buyer's home slice.
 */
@Timeout(60)
class RedisSliceReconciliationIT {

    private static final SkuId PLAIN = new SkuId("plain");
    private static final SkuId SPLIT = new SkuId("split");
    private static final Instant NOW = Instant.now();

    private final RedisClusterCommands<String, String> redis = SharedRedis.commands();
    private final RedisStockReservationAdapter adapter = SharedRedis.adapter();
    private final List<ActivityId> told = new CopyOnWriteArrayList<>();
    private final RedisHotStoreReconciliation reconciliation = new RedisHotStoreReconciliation(redis, told::add,
            ReadPace.NONE);
    private final SliceReconciliationPort bySlice = reconciliation;
    private final RedisSliceStock sliceStock = new RedisSliceStock(redis, activityId -> { });
    private final SliceFixture fixture = new SliceFixture(redis);
    private final Activity sale = sale(SlicedSale.newId("rsr"), THREE, 30);
    private final List<SaleSlice> slices = SliceFixture.slicesOf(sale);
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

    // ---- the look ----

    @Test
    void givenReservationsInEverySlice_thenEachSlicesLookHoldsItsShare_itsReservationsAndItsBuyersHoldingsOnly() {
        adapter.warmUp(sale);
        BuyerId ann = buyerAt(0, "ann");
        BuyerId bob = buyerAt(1, "bob");
        BuyerId dan = buyerAt(1, "dan");
        BuyerId cat = buyerAt(2, "cat");
        BuyerId eve = buyerAt(2, "eve");
        Reservation annsPlain = reserved(ann, line(PLAIN, 2));
        Reservation bobsBoth = reserved(bob, line(PLAIN, 1), line(SPLIT, 2));
        Reservation dansPlain = reserved(dan, line(PLAIN, 1));
        Instant cancelledAt = Instant.parse("2030-01-01T00:00:00.123456789Z");
        assertThat(adapter.release(dansPlain.id(), cancelledAt)).isTrue();
        Reservation catsSplit = reserved(cat, line(SPLIT, 1));
        Reservation evesPlain = reserved(eve, line(PLAIN, 1));
        assertThat(adapter.fail(evesPlain.id())).isTrue();

        Map<Integer, HotStoreSnapshot> looks = new HashMap<>();
        for (SaleSlice slice : slices) {
            HotStoreSnapshot look = bySlice.snapshot(slice).orElseThrow();
            looks.put(slice.index(), look);
            assertThat(look.activityId()).isEqualTo(sale.id());
            assertThat(look.skus().keySet()).as("slice %d", slice.index()).containsExactlyInAnyOrder(PLAIN, SPLIT);
            assertThat(look.skus().values()).as("slice %d", slice.index()).allSatisfy(sku -> {
                assertThat(sku.steady()).isTrue();
                assertThat(sku.holdingsRead()).as("one atomic step reads the holdings").isTrue();
                assertThat(sku.reservations()).as("only reservations of slice %d", slice.index())
                        .allSatisfy(held -> assertThat(held.id().slice()).isEqualTo(slice));
            });
        }

        HotSkuSnapshot zeroPlain = looks.get(0).sku(PLAIN).orElseThrow();
        assertThat(zeroPlain.figures()).isEqualTo(new LedgerFigures(10, 2, 0, 8));
        assertThat(zeroPlain.holdings()).isEqualTo(Map.of(ann, 2L));
        assertThat(zeroPlain.reservations()).containsExactly(held(annsPlain, ReservationStatus.RESERVED, 2, null));
        HotSkuSnapshot zeroSplit = looks.get(0).sku(SPLIT).orElseThrow();
        assertThat(zeroSplit.figures()).isEqualTo(new LedgerFigures(11, 0, 0, 11));
        assertThat(zeroSplit.holdings()).isEmpty();
        assertThat(zeroSplit.reservations()).isEmpty();

        HotSkuSnapshot onePlain = looks.get(1).sku(PLAIN).orElseThrow();
        assertThat(onePlain.figures()).as("dan's unit back").isEqualTo(new LedgerFigures(10, 1, 0, 9));
        assertThat(onePlain.holdings()).isEqualTo(Map.of(bob, 1L));
        assertThat(onePlain.reservations()).containsExactlyInAnyOrder(
                held(bobsBoth, ReservationStatus.RESERVED, 1, null),
                held(dansPlain, ReservationStatus.CANCELLED, 1, cancelledAt));
        HotSkuSnapshot oneSplit = looks.get(1).sku(SPLIT).orElseThrow();
        assertThat(oneSplit.figures()).isEqualTo(new LedgerFigures(10, 2, 0, 8));
        assertThat(oneSplit.holdings()).isEqualTo(Map.of(bob, 2L));
        assertThat(oneSplit.reservations()).containsExactly(held(bobsBoth, ReservationStatus.RESERVED, 2, null));

        HotSkuSnapshot twoPlain = looks.get(2).sku(PLAIN).orElseThrow();
        assertThat(twoPlain.figures()).as("a failure keeps its units until MySQL's word")
                .isEqualTo(new LedgerFigures(10, 1, 0, 9));
        assertThat(twoPlain.holdings()).isEqualTo(Map.of(eve, 1L));
        assertThat(twoPlain.reservations()).containsExactly(held(evesPlain, ReservationStatus.FAILED, 1, null));
        HotSkuSnapshot twoSplit = looks.get(2).sku(SPLIT).orElseThrow();
        assertThat(twoSplit.figures()).isEqualTo(new LedgerFigures(10, 1, 0, 9));
        assertThat(twoSplit.holdings()).isEqualTo(Map.of(cat, 1L));
        assertThat(twoSplit.reservations()).containsExactly(held(catsSplit, ReservationStatus.RESERVED, 1, null));

        for (SaleSlice slice : slices) {
            HotStoreSnapshot paged = reconciliation.pagedSnapshot(slice).orElseThrow();
            for (HotSkuSnapshot atomic : looks.get(slice.index()).skus().values()) {
                HotSkuSnapshot inPages = paged.sku(atomic.skuId()).orElseThrow();
                String which = "slice " + slice.index() + ", " + atomic.skuId();
                assertThat(inPages.figures()).as(which).isEqualTo(atomic.figures());
                assertThat(inPages.version()).as(which).isEqualTo(atomic.version());
                assertThat(inPages.heldUnits()).as(which).isEqualTo(atomic.heldUnits());
                assertThat(inPages.reservations()).as(which)
                        .containsExactlyInAnyOrderElementsOf(atomic.reservations());
                assertThat(inPages.holdingsRead()).as(which).isFalse();
                HotSkuSnapshot withHoldings = bySlice.withHoldings(slice, inPages);
                assertThat(withHoldings.holdings()).as(which).isEqualTo(atomic.holdings());
                assertThat(withHoldings.version()).as(which).isEqualTo(atomic.version());
            }
        }
    }

    @Test
    void givenStockMovedBetweenSlices_thenBothSlicesLooksShowTheMovedTotals_andNothingElseOfTheTransfers() {
        adapter.warmUp(sale);
        BuyerId ann = buyerAt(0, "ann");
        BuyerId bob = buyerAt(1, "bob");
        reserved(ann, line(PLAIN, 2));
        reserved(bob, line(SPLIT, 2));

        assertThat(sliceStock.take(slices.get(0), PLAIN, 11, 5)).hasValue(5);
        assertThat(sliceStock.credit(slices.get(2), PLAIN, 11, 5)).isTrue();
        assertThat(sliceStock.take(slices.get(1), SPLIT, 12, 3)).hasValue(3);
        assertThat(sliceStock.credit(slices.get(0), SPLIT, 12, 3)).isTrue();
        assertThat(sliceStock.take(slices.get(2), SPLIT, 13, 0)).as("a take of nothing is kept too").hasValue(0);
        assertThat(redis.hget(RedisKeys.stock(slices.get(0)), RedisKeys.transferOutField(PLAIN, 11))).isEqualTo("5");
        assertThat(redis.hget(RedisKeys.stock(slices.get(0)), RedisKeys.transferInField(SPLIT, 12))).isEqualTo("3");
        assertThat(redis.hget(RedisKeys.stock(slices.get(2)), RedisKeys.transferOutField(SPLIT, 13))).isEqualTo("0");

        Map<Integer, Map<SkuId, LedgerFigures>> expected = Map.of(
                0, Map.of(PLAIN, new LedgerFigures(5, 2, 0, 3), SPLIT, new LedgerFigures(14, 0, 0, 14)),
                1, Map.of(PLAIN, new LedgerFigures(10, 0, 0, 10), SPLIT, new LedgerFigures(7, 2, 0, 5)),
                2, Map.of(PLAIN, new LedgerFigures(15, 0, 0, 15), SPLIT, new LedgerFigures(10, 0, 0, 10)));
        for (SaleSlice slice : slices) {
            for (HotStoreSnapshot look : List.of(bySlice.snapshot(slice).orElseThrow(),
                    reconciliation.pagedSnapshot(slice).orElseThrow())) {
                assertThat(look.skus().keySet()).as("slice %d: no SKU made of a transfer's record", slice.index())
                        .containsExactlyInAnyOrder(PLAIN, SPLIT);
                assertThat(look.skus().values()).allSatisfy(sku -> {
                    String which = "slice " + slice.index() + ", " + sku.skuId();
                    assertThat(sku.figures()).as(which).isEqualTo(expected.get(slice.index()).get(sku.skuId()));
                    assertThat(sku.figures().isConsistent()).as(which).isTrue();
                    assertThat(sku.appliedAdjustments()).as(which).isEmpty();
                    assertThat(sku.steady()).as(which).isTrue();
                });
            }
            assertThat(fixture.ledgers(slice)).as("slice %d as the reserve path reads it", slice.index())
                    .isEqualTo(Map.of(PLAIN, expected.get(slice.index()).get(PLAIN).toLedger(),
                            SPLIT, expected.get(slice.index()).get(SPLIT).toLedger()));
        }
        assertThat(slices.stream().mapToLong(slice -> bySlice.snapshot(slice).orElseThrow().sku(SPLIT).orElseThrow()
                .figures().total()).sum()).as("no unit made or lost").isEqualTo(31);

        // A repair of the source leaves the transfer's record: a repeat still gets the first answer and takes nothing.
        HotSkuSnapshot source = bySlice.snapshot(slices.get(0)).orElseThrow().sku(PLAIN).orElseThrow();
        assertThat(bySlice.repair(slices.get(0), new LedgerRepair(PLAIN, new LedgerFigures(5, 2, 0, 3),
                Map.of(), Set.of(), source.version(), 1, 2))).isEqualTo(LedgerRepairResult.REPAIRED);
        assertThat(sliceStock.take(slices.get(0), PLAIN, 11, 5)).hasValue(5);
        assertThat(fixture.ledger(slices.get(0), PLAIN)).isEqualTo(new StockLedger(5, 2, 0));
        assertThat(sliceStock.credit(slices.get(2), PLAIN, 11, 5)).isTrue();
        assertThat(fixture.ledger(slices.get(2), PLAIN)).isEqualTo(StockLedger.of(15));
    }

    @Test
    void givenATransfersRecords_thenNeitherTheFiguresNorTheAtomicLookCarriesThem() {
        adapter.warmUp(sale);
        for (long transfer = 1; transfer <= 3; transfer++) {
            assertThat(sliceStock.take(slices.get(1), PLAIN, transfer, 1)).hasValue(1);
            assertThat(sliceStock.credit(slices.get(0), PLAIN, transfer, 1)).isTrue();
        }
        String[] metaAndStock = {RedisKeys.meta(slices.get(1)), RedisKeys.stock(slices.get(1))};
        assertThat(redis.hkeys(metaAndStock[1])).as("the records are there")
                .contains(RedisKeys.transferOutField(PLAIN, 1), RedisKeys.transferOutField(PLAIN, 3));

        List<Object> figures = LuaScript.load(redis, "reconcile_figures").run(redis, ScriptOutputType.MULTI,
                metaAndStock);
        String[] lookKeys = {RedisKeys.meta(slices.get(0)), RedisKeys.stock(slices.get(0)),
                RedisKeys.holdings(slices.get(0)), RedisKeys.reservations(slices.get(0)),
                RedisKeys.outbox(slices.get(0))};
        List<Object> look = LuaScript.load(redis, "reconcile_snapshot").run(redis, ScriptOutputType.MULTI, lookKeys,
                RedisKeys.OUTBOX_GROUP, Integer.toString(RedisHotStoreReconciliation.ATOMIC_SNAPSHOT_LIMIT));

        assertThat(fieldsOf(figures.get(2))).as("the figures of the source")
                .contains(RedisKeys.stockField(PLAIN, "total"), RedisKeys.segmentField(PLAIN, 1))
                .noneMatch(field -> field.contains(":xout:") || field.contains(":xin:"));
        assertThat(fieldsOf(look.get(2))).as("the atomic look of the target")
                .contains(RedisKeys.stockField(PLAIN, "total"), RedisKeys.segmentField(PLAIN, 1))
                .noneMatch(field -> field.contains(":xout:") || field.contains(":xin:"));
        assertThat(bySlice.snapshot(slices.get(0)).orElseThrow().sku(PLAIN).orElseThrow().figures())
                .isEqualTo(new LedgerFigures(13, 0, 0, 13));
    }

    // ---- the paged look, the holdings and the audit ----

    @Test
    void givenASliceAboveTheAtomicLimit_thenItIsReadInPagesAlone_andEachSlicesAuditKeepsACursorOfItsOwn() {
        Activity big = sale(SlicedSale.newId("rsrb"), THREE, 3000);
        others.add(big);
        adapter.warmUp(big);
        List<SaleSlice> bigSlices = SliceFixture.slicesOf(big);
        SaleSlice zero = bigSlices.get(0);
        SaleSlice one = bigSlices.get(1);
        // A record, a holding and an outbox entry for each buyer; and more holdings than a compact hash keeps.
        int buyers = Math.max(RedisHotStoreReconciliation.ATOMIC_SNAPSHOT_LIMIT / 3 + 50, compactHashLimit() + 100);
        Set<BuyerId> atOne = new HashSet<>();
        for (int b = 0; b < buyers; b++) {
            BuyerId buyer = buyerAt(1, "b" + b + "-");
            atOne.add(buyer);
            SlicedSale.reserved(adapter, SlicedSale.attempt(big, buyer, "k1", NOW, line(PLAIN, 1)));
        }
        BuyerId ann = buyerAt(0, "ann");
        SlicedSale.reserved(adapter, SlicedSale.attempt(big, ann, "k1", NOW, line(PLAIN, 1)));
        SlicedSale.reserved(adapter, SlicedSale.attempt(big, buyerAt(2, "cat"), "k1", NOW, line(PLAIN, 1)));
        assertThat(redis.hlen(RedisKeys.reservations(one)) + redis.hlen(RedisKeys.holdings(one))
                + redis.xlen(RedisKeys.outbox(one))).isGreaterThan(RedisHotStoreReconciliation.ATOMIC_SNAPSHOT_LIMIT);

        HotSkuSnapshot paged = bySlice.snapshot(one).orElseThrow().sku(PLAIN).orElseThrow();
        HotSkuSnapshot small = bySlice.snapshot(zero).orElseThrow().sku(PLAIN).orElseThrow();

        assertThat(paged.holdingsRead()).as("read in pages: the holdings left out").isFalse();
        assertThat(paged.steady()).isTrue();
        assertThat(paged.figures()).isEqualTo(new LedgerFigures(1000, buyers, 0, 1000 - buyers));
        assertThat(paged.heldUnits()).isEqualTo(buyers);
        assertThat(paged.reservations()).hasSize(buyers).allMatch(HotReservation::inPipeline)
                .allSatisfy(held -> assertThat(held.id().slice()).isEqualTo(one));
        assertThat(small.holdingsRead()).as("slice 0 is small: one atomic step").isTrue();
        assertThat(small.figures()).isEqualTo(new LedgerFigures(1000, 1, 0, 999));
        assertThat(small.holdings()).isEqualTo(Map.of(ann, 1L));
        HotSkuSnapshot withHoldings = bySlice.withHoldings(one, paged);
        assertThat(withHoldings.holdings().keySet()).isEqualTo(atOne);
        assertThat(withHoldings.version()).isEqualTo(paged.version());

        HoldingsSlice first = bySlice.auditHoldings(one, paged, 1).orElseThrow();
        assertThat(first.steady()).isTrue();
        assertThat(first.cycleEnded()).isFalse();
        String oneCursor = redis.hget(RedisKeys.holdingsAudit(one), PLAIN.value());
        assertThat(oneCursor).isNotNull().isNotEqualTo("0");
        assertThat(redis.exists(RedisKeys.holdingsAudit(zero))).as("slice 0's cursor untouched").isZero();

        HotSkuSnapshot zeroInPages = reconciliation.pagedSnapshot(zero).orElseThrow().sku(PLAIN).orElseThrow();
        HoldingsSlice zeroAudit = bySlice.auditHoldings(zero, zeroInPages, 1).orElseThrow();
        assertThat(zeroAudit.holdings()).isEqualTo(Map.of(ann, 1L));
        assertThat(zeroAudit.cycleEnded()).isTrue();
        assertThat(redis.hget(RedisKeys.holdingsAudit(zero), PLAIN.value())).isEqualTo("0");
        assertThat(redis.hget(RedisKeys.holdingsAudit(one), PLAIN.value())).as("slice 1's cursor where it was")
                .isEqualTo(oneCursor);

        Map<BuyerId, Long> audited = new HashMap<>(first.holdings());
        boolean cycleEnded = false;
        for (int passes = 0; passes < 100 && !cycleEnded; passes++) {
            HoldingsSlice next = bySlice.auditHoldings(one, paged, 1).orElseThrow();
            assertThat(next.steady()).isTrue();
            audited.putAll(next.holdings());
            cycleEnded = next.cycleEnded();
        }
        assertThat(cycleEnded).isTrue();
        assertThat(audited.keySet()).as("one cycle over slice 1's holdings: its buyers, each once").isEqualTo(atOne);
        assertThat(redis.hget(RedisKeys.holdingsAudit(zero), PLAIN.value())).isEqualTo("0");
    }

    // ---- the repair ----

    @Test
    void givenARepairOfSliceOne_thenOnlySliceOneIsRewritten_aStaleOneIsRetried_andTheSaleIsTold() {
        adapter.warmUp(sale);
        BuyerId bob = buyerAt(1, "bob");
        BuyerId fay = buyerAt(1, "fay");
        reserved(buyerAt(0, "ann"), line(PLAIN, 1));
        reserved(bob, line(PLAIN, 2));
        reserved(buyerAt(2, "cat"), line(PLAIN, 1), line(SPLIT, 1));
        SaleSlice one = slices.get(1);
        HotSkuSnapshot stale = bySlice.snapshot(one).orElseThrow().sku(PLAIN).orElseThrow();
        reserved(buyerAt(1, "dan"), line(PLAIN, 1));

        assertThat(bySlice.repair(one, repairOf(stale))).isEqualTo(LedgerRepairResult.RETRY);
        assertThat(fixture.ledger(one, PLAIN)).as("nothing written").isEqualTo(new StockLedger(10, 3, 0));

        Map<String, Map<String, String>> othersBefore = hashesOf(slices.get(0), slices.get(2));
        HotSkuSnapshot look = bySlice.snapshot(one).orElseThrow().sku(PLAIN).orElseThrow();
        told.clear();

        LedgerRepairResult result = bySlice.repair(one, new LedgerRepair(PLAIN, new LedgerFigures(12, 2, 1, 9),
                Map.of(bob, 3L, fay, 1L), Set.of(41L), look.version(), 2, 2));

        assertThat(result).isEqualTo(LedgerRepairResult.REPAIRED);
        assertThat(fixture.ledger(one, PLAIN)).isEqualTo(new StockLedger(12, 2, 1));
        assertThat(fixture.segments(one, PLAIN)).containsExactly(5L, 4L);
        assertThat(redis.hget(RedisKeys.holdings(one), RedisKeys.holdingField(bob, PLAIN))).isEqualTo("3");
        assertThat(redis.hget(RedisKeys.holdings(one), RedisKeys.holdingField(fay, PLAIN))).isEqualTo("1");
        assertThat(redis.hget(RedisKeys.stock(one), RedisKeys.adjustmentField(PLAIN, 41))).isEqualTo("1");
        assertThat(bySlice.snapshot(one).orElseThrow().sku(PLAIN).orElseThrow().appliedAdjustments())
                .containsExactly(41L);
        assertThat(hashesOf(slices.get(0), slices.get(2))).as("slices 0 and 2 untouched").isEqualTo(othersBefore);
        assertThat(told).as("the sale's units may be buyable again").containsExactly(sale.id());
        assertThat(bySlice.repair(one, repairOf(look))).as("its version moved with the repair")
                .isEqualTo(LedgerRepairResult.RETRY);
    }

    @Test
    void givenASliceNotLoaded_thenItHasNoLook_itsRepairIsNotLoaded_andNothingOfItIsWritten() {
        fixture.warmUp(slices.get(0), sale);
        fixture.warmUp(slices.get(2), sale);
        SaleSlice one = slices.get(1);
        HotSkuSnapshot zerosLook = reconciliation.pagedSnapshot(slices.get(0)).orElseThrow().sku(PLAIN).orElseThrow();

        assertThat(bySlice.snapshot(one)).isEmpty();
        assertThat(reconciliation.pagedSnapshot(one)).isEmpty();
        assertThat(bySlice.withHoldings(one, zerosLook).steady()).as("no figures to hold still").isFalse();
        assertThat(bySlice.auditHoldings(one, zerosLook, 1)).hasValueSatisfying(audit ->
                assertThat(audit.steady()).isFalse());
        assertThat(bySlice.repair(one, new LedgerRepair(PLAIN, new LedgerFigures(10, 0, 0, 10), Map.of(), Set.of(),
                zerosLook.version(), 1, 2))).isEqualTo(LedgerRepairResult.NOT_LOADED);

        for (String key : RedisKeys.archiveKeys(one)) {
            assertThat(redis.exists(key)).as(key).isZero();
        }
        assertThat(bySlice.snapshot(slices.get(2))).as("the loaded ones answer").isPresent();
    }

    // ---- a sale of one slice ----

    @Test
    void givenASaleOfOneSlice_thenItsSliceZeroAnswersAsTheActivity_onTheSameKeys() {
        Activity single = sale(SlicedSale.newId("rsr1"), SaleSlices.ONE, 30);
        others.add(single);
        adapter.warmUp(single);
        ActivityId id = single.id();
        SaleSlice only = new SaleSlice(id, 0, SaleSlices.ONE);
        assertThat(List.of(RedisKeys.meta(only), RedisKeys.stock(only), RedisKeys.holdings(only),
                RedisKeys.reservations(only), RedisKeys.inFlight(only), RedisKeys.outbox(only),
                RedisKeys.holdingsAudit(only))).containsExactly(RedisKeys.meta(id), RedisKeys.stock(id),
                RedisKeys.holdings(id), RedisKeys.reservations(id), RedisKeys.inFlight(id), RedisKeys.outbox(id),
                RedisKeys.holdingsAudit(id));
        BuyerId ann = new BuyerId("ann");
        Reservation anns = SlicedSale.reserved(adapter, SlicedSale.attempt(single, ann, "k1", NOW, line(PLAIN, 2),
                line(SPLIT, 1)));
        assertThat(anns.id().value()).as("an id of today's form, <activity>.<token>").doesNotContain("of1");
        assertThat(anns.id().slice()).isEqualTo(only);
        SlicedSale.reserved(adapter, SlicedSale.attempt(single, new BuyerId("bob"), "k1", NOW, line(PLAIN, 1)));

        HotStoreSnapshot look = bySlice.snapshot(only).orElseThrow();

        assertThat(look).isEqualTo(reconciliation.snapshot(id).orElseThrow());
        assertThat(look.sku(PLAIN).orElseThrow().figures()).isEqualTo(new LedgerFigures(30, 3, 0, 27));
        HotSkuSnapshot paged = reconciliation.pagedSnapshot(only).orElseThrow().sku(PLAIN).orElseThrow();
        assertThat(paged).isEqualTo(reconciliation.pagedSnapshot(id).orElseThrow().sku(PLAIN).orElseThrow());
        assertThat(bySlice.withHoldings(only, paged)).isEqualTo(reconciliation.withHoldings(id, paged));
        assertThat(bySlice.auditHoldings(only, paged, 1)).isEqualTo(reconciliation.auditHoldings(id, paged, 1))
                .hasValueSatisfying(audit -> assertThat(audit.holdings()).containsOnlyKeys(ann, new BuyerId("bob")));
        assertThat(redis.hget(RedisKeys.holdingsAudit(id), PLAIN.value())).isEqualTo("0");

        HotSkuSnapshot before = look.sku(PLAIN).orElseThrow();
        assertThat(bySlice.repair(only, new LedgerRepair(PLAIN, new LedgerFigures(31, 3, 0, 28), Map.of(), Set.of(),
                before.version(), 1, 2))).isEqualTo(LedgerRepairResult.REPAIRED);
        assertThat(reconciliation.snapshot(id).orElseThrow().sku(PLAIN).orElseThrow().figures())
                .as("the activity's ledger").isEqualTo(new LedgerFigures(31, 3, 0, 28));
        assertThat(reconciliation.repair(id, new LedgerRepair(PLAIN, new LedgerFigures(30, 3, 0, 27), Map.of(),
                Set.of(), before.version(), 1, 2))).as("the version the slice's repair moved")
                .isEqualTo(LedgerRepairResult.RETRY);

        String registry = SharedRedis.newRegistry();
        try (RedisHotStore store = RedisHotStore.connect(SharedRedis.settings(Duration.ofSeconds(10)), registry)) {
            RedisHotStore.ReconciliationRoles roles = store.reconciliationRoles(0);
            assertThat(roles.sliceReconciliation().snapshot(only)).as("the hot store's port of slices")
                    .isEqualTo(roles.reconciliation().snapshot(id)).isPresent();
        } finally {
            SharedRedis.forgetRegistry(registry);
        }
    }

    // ---- helpers ----

    private Reservation reserved(BuyerId buyer, ReservationLine... lines) {
        return SlicedSale.reserved(adapter, SlicedSale.attempt(sale, buyer, "k1", NOW, lines));
    }

    private static ReservationLine line(SkuId sku, int units) {
        return new ReservationLine(sku, units);
    }

    private static HotReservation held(Reservation reservation, ReservationStatus status, int units,
                                       Instant cancelledAt) {
        return new HotReservation(reservation.id(), reservation.buyerId(), status, units, reservation.reservedAt(),
                cancelledAt, true);
    }

    /** A repair that writes what the look saw, on the look's version. */
    private static LedgerRepair repairOf(HotSkuSnapshot look) {
        return new LedgerRepair(look.skuId(), look.figures(), look.holdings(), Set.of(), look.version(), 1, 2);
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

    private static List<String> fieldsOf(Object flatPairs) {
        List<?> pairs = (List<?>) flatPairs;
        List<String> fields = new ArrayList<>();
        for (int i = 0; i < pairs.size(); i += 2) {
            fields.add(String.valueOf(pairs.get(i)));
        }
        return fields;
    }

    /** Up to this many fields a hash is stored compact, and HSCAN returns it whole in one call whatever its COUNT. */
    private int compactHashLimit() {
        Map<String, String> limit = redis.configGet("hash-max-listpack-entries");
        return limit.isEmpty() ? 512 : Integer.parseInt(limit.values().iterator().next());
    }

    private static Activity sale(String id, SaleSlices slices, long plainUnits) {
        return SlicedSale.sale(id, "sliced reconciliation", NOW, slices, ActivityItem.of(PLAIN.value(), plainUnits),
                new ActivityItem(SPLIT, 31, null, 4));
    }
}
