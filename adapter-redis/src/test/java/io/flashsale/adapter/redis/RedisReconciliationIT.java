package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.OutboxEntryDecoder;
import io.flashsale.application.order.port.out.OutboxEntry;
import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.application.reconciliation.port.out.HoldingsSlice;
import io.flashsale.application.reconciliation.port.out.LedgerRepairResult;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.HotReservation;
import io.flashsale.domain.reconciliation.HotSkuSnapshot;
import io.flashsale.domain.reconciliation.LedgerFigures;
import io.flashsale.domain.reconciliation.LedgerRepair;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.stock.LedgerAdjustment;
import io.flashsale.domain.stock.StockLedger;
import io.lettuce.core.StreamMessage;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reconciliation scripts on the real Redis: what the snapshot reads, that a repair writes exactly the given figures
 * and only while nothing moved, that a re-driven event reads back as the reservation, and the adjust script's rules.
 * The rebuild has {@link RedisRebuildIT}.
 */
class RedisReconciliationIT extends HotStoreSaleTestBase {

    private final Activity sale = saleOf("reconcile", new ActivityItem(A, 20, null, 3), new ActivityItem(B, 4, 2, 1));

    RedisReconciliationIT() {
        super("rc");
    }

    private HotSkuSnapshot snapshotOf(SkuId sku) {
        return hotStore.snapshot(activityId).orElseThrow().sku(sku).orElseThrow();
    }

    /** Up to this many fields a hash is stored compact, and HSCAN returns it whole in one call whatever its COUNT. */
    private int compactHashLimit() {
        Map<String, String> limit = redis.configGet("hash-max-listpack-entries");
        return limit.isEmpty() ? 512 : Integer.parseInt(limit.values().iterator().next());
    }

    /**
     * Below this many buyers of one unit each a sale may be read in one atomic step (a record and a holding per buyer)
     * or its holdings hash be compact: a sale of more is read in pages, and HSCAN steps through its holdings.
     */
    private int pagedSaleBuyers() {
        return Math.max(compactHashLimit(), RedisHotStoreReconciliation.ATOMIC_SNAPSHOT_LIMIT / 2);
    }

    private List<Long> segmentsOf(SkuId sku, int segments) {
        List<Long> counts = new ArrayList<>();
        for (int s = 1; s <= segments; s++) {
            counts.add(Long.parseLong(redis.hget(RedisKeys.stock(activityId), RedisKeys.segmentField(sku, s))));
        }
        return counts;
    }

    private StockLedger ledgerOf(SkuId sku) {
        return stock.stock(activityId).orElseThrow().stream().filter(s -> s.skuId().equals(sku)).findFirst()
                .orElseThrow().ledger();
    }

    // ---- snapshot ----

    @Test
    void givenAnActivityNotLoaded_thenThereIsNoSnapshot() {
        assertThat(hotStore.snapshot(activityId)).isEmpty();
    }

    @Test
    void givenReservationsInEveryStatus_whenSnapshotted_thenTheLedgerHoldingsRecordsThatMatterAndTheOutboxAreRead() {
        stock.warmUp(sale);
        Reservation reserved = reserve(ANN, line(A, 2), line(B, 1));
        Reservation ordered = reserve(BOB, line(A, 1));
        stock.confirm(ordered.id());
        Reservation paid = reserve(new BuyerId("cid"), line(A, 1));
        stock.confirm(paid.id());
        stock.markPaid(paid.id());
        Reservation failed = reserve(new BuyerId("dee"), line(A, 1));
        stock.fail(failed.id());
        Reservation cancelled = reserve(new BuyerId("eve"), line(A, 1));
        Instant cancelledAt = Instant.parse("2030-01-01T00:00:00.123456789Z");
        stock.release(cancelled.id(), cancelledAt);
        // A relay read the first three entries and acknowledged two of them: one pending, two never read.
        List<OutboxEntry> read = outbox.readNew(activityId, "relay-1", 3);
        outbox.acknowledge(activityId, read.subList(1, 3));
        hotStoreAdjustments.adjust(activityId, A, 1, 77);

        HotSkuSnapshot a = snapshotOf(A);

        assertThat(a.figures()).isEqualTo(new LedgerFigures(21, 3, 2, 16));
        assertThat(a.version()).as("<loadId>/<moves of a>: 5 reserves, 2 confirms, a failure, a release, an adjustment")
                .matches("\\d+\\.\\d+/10");
        assertThat(a.holdings()).isEqualTo(Map.of(ANN, 2L, BOB, 1L, new BuyerId("cid"), 1L, new BuyerId("dee"), 1L));
        assertThat(a.appliedAdjustments()).containsExactly(77L);
        HotSkuSnapshot paged = hotStore.pagedSnapshot(activityId).orElseThrow().sku(A).orElseThrow();
        assertThat(paged.figures()).isEqualTo(a.figures());
        assertThat(paged.version()).isEqualTo(a.version());
        assertThat(paged.holdingsRead()).as("pages leave the holdings out: their sum stands for them").isFalse();
        assertThat(paged.heldUnits()).isEqualTo(a.heldUnits()).isEqualTo(5);
        assertThat(hotStore.withHoldings(activityId, paged).holdings()).isEqualTo(a.holdings());
        assertThat(paged.appliedAdjustments()).isEqualTo(a.appliedAdjustments());
        assertThat(a.reservations()).as("one atomic step reads what pages read: an ordered one has no record (ADR 71)")
                .containsExactlyInAnyOrderElementsOf(paged.reservations());
        assertThat(paged.reservations()).containsExactlyInAnyOrder(
                new HotReservation(reserved.id(), ANN, ReservationStatus.RESERVED, 2, reserved.reservedAt(), null, true),
                new HotReservation(failed.id(), new BuyerId("dee"), ReservationStatus.FAILED, 1, failed.reservedAt(), null,
                        true),
                new HotReservation(cancelled.id(), new BuyerId("eve"), ReservationStatus.CANCELLED, 1,
                        cancelled.reservedAt(), cancelledAt, true));
        PendingRestore restored = PendingRestore.of(paid, ReservationStatus.EXPIRED);
        assertThat(stock.restore(restored)).contains(ReservationStatus.ORDERED);
        assertThat(hotStore.restoreStatuses(activityId, List.of(PendingRestore.of(ordered, ReservationStatus.CANCELLED),
                restored, PendingRestore.of(reserved, ReservationStatus.EXPIRED),
                PendingRestore.of(cancelled, ReservationStatus.CANCELLED),
                new PendingRestore(ReservationId.of(activityId, "never"), BOB, new RequestId("never"),
                        List.of(line(A, 1)), ReservationStatus.EXPIRED))))
                .as("closed orders as a restore finds them: the ordered one by its request entry, the restored one by "
                        + "its letter, the unknown one not at all")
                .containsOnly(Map.entry(ordered.id(), ReservationStatus.ORDERED),
                        Map.entry(paid.id(), ReservationStatus.EXPIRED),
                        Map.entry(reserved.id(), ReservationStatus.RESERVED),
                        Map.entry(cancelled.id(), ReservationStatus.CANCELLED));
        HotSkuSnapshot b = snapshotOf(B);
        assertThat(b.figures()).isEqualTo(new LedgerFigures(4, 1, 0, 3));
        assertThat(b.reservations()).extracting(HotReservation::id).containsExactly(reserved.id());
    }

    @Test
    void givenASaleAboveTheAtomicLimit_thenItIsReadInPagesWithEveryReservationThatCounts() {
        int buyers = RedisHotStoreReconciliation.ATOMIC_SNAPSHOT_LIMIT / 2 + 1;
        stock.warmUp(new Activity(activityId, "big", sale.startsAt(), sale.endsAt(), new PurchaseLimit(1),
                Activity.DEFAULT_PAYMENT_TIMEOUT, List.of(new ActivityItem(A, 2L * buyers, null, 3))));
        for (int b = 0; b < buyers; b++) {
            reserve(new BuyerId("b" + b), line(A, 1));
        }
        assertThat(redis.hlen(RedisKeys.reservations(activityId)) + redis.hlen(RedisKeys.holdings(activityId)))
                .as("a record and a holding per buyer")
                .isGreaterThan(RedisHotStoreReconciliation.ATOMIC_SNAPSHOT_LIMIT);

        HotSkuSnapshot a = snapshotOf(A);

        assertThat(a.steady()).isTrue();
        assertThat(a.figures()).isEqualTo(new LedgerFigures(2L * buyers, buyers, 0, buyers));
        assertThat(a.reservations()).hasSize(buyers).allMatch(HotReservation::inPipeline);
        assertThat(a.holdingsRead()).isFalse();
        assertThat(a.heldUnits()).isEqualTo(buyers);
        HotSkuSnapshot withHoldings = hotStore.withHoldings(activityId, a);
        assertThat(withHoldings.holdings()).hasSize(buyers);
        assertThat(withHoldings.version()).isEqualTo(a.version());
    }

    @Test
    void givenAPagedSale_whenAuditedAPageALook_thenOneCycleCoversEveryHoldingAndTheCursorLivesInRedis() {
        stock.warmUp(new Activity(activityId, "big", sale.startsAt(), sale.endsAt(), new PurchaseLimit(1),
                Activity.DEFAULT_PAYMENT_TIMEOUT, List.of(new ActivityItem(A, 10_000, null, 3))));
        int buyers = pagedSaleBuyers() + 500;
        for (int b = 0; b < buyers; b++) {
            reserve(new BuyerId("b" + b), line(A, 1));
        }
        HotSkuSnapshot look = snapshotOf(A);
        assertThat(look.holdingsRead()).isFalse();

        Map<BuyerId, Long> seen = new HashMap<>();
        int slices = 0;
        boolean cycleEnded = false;
        while (!cycleEnded && slices < 50) {
            // A new adapter each time, as the next pass on another instance: the cursor lives in Redis.
            HoldingsSlice slice = SharedRedis.reconciliation()
                    .auditHoldings(activityId, look, 1).orElseThrow();
            assertThat(slice.steady()).isTrue();
            assertThat(slice.holdings().size()).as("one page of a hundred buckets").isLessThan(buyers);
            seen.putAll(slice.holdings());
            cycleEnded = slice.cycleEnded();
            slices++;
        }

        assertThat(cycleEnded).isTrue();
        assertThat(slices).as("a hundred a page").isBetween(2, 2 * buyers / 100 + 2);
        assertThat(seen).hasSize(buyers).allSatisfy((buyer, units) -> assertThat(units).isEqualTo(1L));
        assertThat(redis.hget(RedisKeys.holdingsAudit(activityId), A.value())).isEqualTo("0");
    }

    @Test
    void givenTheSkuMovedSinceTheLook_whenAudited_thenTheSliceIsNotSteadyAndTheCursorStaysForTheNextLook() {
        stock.warmUp(new Activity(activityId, "big", sale.startsAt(), sale.endsAt(), new PurchaseLimit(1),
                Activity.DEFAULT_PAYMENT_TIMEOUT, List.of(new ActivityItem(A, 10_000, null, 3))));
        for (int b = 0; b < pagedSaleBuyers() + 300; b++) {
            reserve(new BuyerId("b" + b), line(A, 1));
        }
        HotSkuSnapshot look = snapshotOf(A);
        assertThat(hotStore.auditHoldings(activityId, look, 1).orElseThrow().steady()).isTrue();
        String cursor = redis.hget(RedisKeys.holdingsAudit(activityId), A.value());
        reserve(new BuyerId("late"), line(A, 1));

        HoldingsSlice moved = hotStore.auditHoldings(activityId, look, 1).orElseThrow();

        assertThat(moved.steady()).isFalse();
        assertThat(redis.hget(RedisKeys.holdingsAudit(activityId), A.value())).isEqualTo(cursor).isNotEqualTo("0");
        assertThat(hotStore.auditHoldings(activityId, look.withHoldings(Map.of(), look.version()), 1)).as("read whole")
                .isEmpty();
    }

    @Test
    void givenEveryMoveOutOfReserved_thenTheInFlightIndexListsOnlyWhatMySqlHasNotSettled_andTheSumOfHoldingsFollows() {
        stock.warmUp(sale);
        Reservation reserved = reserve(ANN, line(A, 2), line(B, 1));
        Reservation confirmed = reserve(BOB, line(A, 1));
        stock.confirm(confirmed.id());
        Reservation released = reserve(new BuyerId("cid"), line(A, 1));
        stock.release(released.id());
        Reservation cancelled = reserve(new BuyerId("dee"), line(A, 1));
        stock.release(cancelled.id(), Instant.now());
        Reservation failed = reserve(new BuyerId("eve"), line(A, 3));
        stock.fail(failed.id());
        Reservation settledOk = reserve(new BuyerId("fay"), line(A, 1));
        Reservation settledFailed = reserve(new BuyerId("gus"), line(A, 1));
        new RedisHotStoreSettlement(SharedRedis.commands(), id -> { })
                .settle(activityId, List.of(settledOk.id()), List.of(settledFailed.id()));

        assertThat(redis.hkeys(RedisKeys.inFlight(activityId))).containsExactlyInAnyOrder(reserved.id().value(),
                cancelled.id().value(), failed.id().value());
        assertThat(redis.hget(RedisKeys.stock(activityId), RedisKeys.stockField(A, "held")))
                .as("ann 2, bob 1, eve 3 (FAILED, not given back yet), fay 1").isEqualTo("7");
        assertThat(redis.hget(RedisKeys.stock(activityId), RedisKeys.stockField(B, "held"))).isEqualTo("1");

        hotStore.settled(activityId, Map.of(reserved.id(), ReservationStatus.RESERVED,
                cancelled.id(), ReservationStatus.CANCELLED, failed.id(), ReservationStatus.ORDERED));

        assertThat(redis.hkeys(RedisKeys.inFlight(activityId))).as("never a RESERVED one, nor one seen otherwise")
                .containsExactlyInAnyOrder(reserved.id().value(), failed.id().value());
        assertThat(hotStore.pagedSnapshot(activityId).orElseThrow().sku(A).orElseThrow().reservations())
                .extracting(HotReservation::id).containsExactlyInAnyOrder(reserved.id(), failed.id());
    }

    @Test
    void givenAWrongSumOfHoldings_thenARepairThatReadTheHoldingsWritesItAndOneThatDidNotMovesItWithTheHoldings() {
        stock.warmUp(sale);
        reserve(ANN, line(A, 2));
        redis.hset(RedisKeys.stock(activityId), RedisKeys.stockField(A, "held"), "9");
        HotSkuSnapshot look = snapshotOf(A);
        assertThat(look.heldUnits()).isEqualTo(9);

        assertThat(hotStore.repair(activityId, new LedgerRepair(A, look.figures(), Map.of(BOB, 1L), Set.of(),
                look.version(), 3, 5, java.util.OptionalLong.of(3)))).isEqualTo(LedgerRepairResult.REPAIRED);
        assertThat(snapshotOf(A).heldUnits()).isEqualTo(3);

        HotSkuSnapshot again = snapshotOf(A);
        assertThat(hotStore.repair(activityId, new LedgerRepair(A, again.figures(), Map.of(BOB, 0L, ANN, 4L), Set.of(),
                again.version(), 3, 5))).isEqualTo(LedgerRepairResult.REPAIRED);
        assertThat(snapshotOf(A).heldUnits()).as("3 - bob's 1 + ann's 2 more").isEqualTo(4);
        assertThat(snapshotOf(A).holdings()).isEqualTo(Map.of(ANN, 4L));
    }

    // ---- repair ----

    @Test
    void givenARepairOfTheCurrentFingerprint_thenExactlyItsFiguresSegmentsHoldingsAndAdjustmentsAreWritten() {
        stock.warmUp(sale);
        reserve(ANN, line(A, 2), line(B, 1));
        reserve(BOB, line(A, 1));
        reserve(new BuyerId("eve"), line(A, 1));
        HotSkuSnapshot before = snapshotOf(A);

        LedgerRepairResult result = hotStore.repair(activityId, new LedgerRepair(A, new LedgerFigures(25, 3, 4, 18),
                Map.of(ANN, 5L, new BuyerId("cid"), 2L, BOB, 0L), Set.of(5L, 6L), before.version(), 3, 5));

        assertThat(result).isEqualTo(LedgerRepairResult.REPAIRED);
        assertThat(ledgerOf(A)).isEqualTo(new StockLedger(25, 3, 4));
        assertThat(segmentsOf(A, 3)).containsExactly(6L, 6L, 6L);
        assertThat(stock.holdings(activityId, ANN)).isEqualTo(Map.of(A, 5L, B, 1L));
        assertThat(stock.holdings(activityId, BOB)).as("listed with 0: holds none of A").isEmpty();
        assertThat(stock.holdings(activityId, new BuyerId("eve"))).as("not listed: unchanged").isEqualTo(Map.of(A, 1L));
        assertThat(stock.holdings(activityId, new BuyerId("cid"))).isEqualTo(Map.of(A, 2L));
        assertThat(hotStoreAdjustments.adjust(activityId, A, 3, 6)).isEqualTo(new LedgerAdjustment.AlreadyApplied());
        assertThat(ledgerOf(B)).as("another SKU is untouched").isEqualTo(new StockLedger(4, 1, 0));
    }

    @Test
    void givenAReservationAcceptedBetweenTheSnapshotAndTheRepair_thenRetryAndNothingIsWritten() {
        stock.warmUp(sale);
        HotSkuSnapshot before = snapshotOf(A);
        reserve(ANN, line(A, 1));

        LedgerRepairResult result = hotStore.repair(activityId, new LedgerRepair(A, new LedgerFigures(20, 0, 0, 20),
                Map.of(), Set.of(), before.version(), 3, 5));

        assertThat(result).isEqualTo(LedgerRepairResult.RETRY);
        assertThat(ledgerOf(A)).isEqualTo(new StockLedger(20, 1, 0));
        assertThat(stock.holdings(activityId, ANN)).isEqualTo(Map.of(A, 1L));
    }

    @Test
    void givenTwoMovesThatCancelOutBetweenTheSnapshotAndTheRepair_thenRetryAndNothingIsWritten() {
        stock.warmUp(sale);
        Reservation ann = reserve(ANN, line(A, 2));
        HotSkuSnapshot before = snapshotOf(A);
        reserve(BOB, line(A, 2));
        stock.release(ann.id());
        assertThat(snapshotOf(A).figures()).as("the same figures as at the snapshot").isEqualTo(before.figures());

        // Computed from the first look: Ann holds 2. Landing it would give her 2 more units on top of Bob's.
        LedgerRepairResult result = hotStore.repair(activityId, new LedgerRepair(A, new LedgerFigures(20, 2, 0, 18),
                Map.of(ANN, 2L), Set.of(), before.version(), 3, 5));

        assertThat(result).isEqualTo(LedgerRepairResult.RETRY);
        assertThat(stock.holdings(activityId, ANN)).isEmpty();
        assertThat(stock.holdings(activityId, BOB)).isEqualTo(Map.of(A, 2L));
    }

    @Test
    void givenTheActivityLoadedAgain_whenRepairedFromALookBeforeTheLoss_thenRetry() {
        stock.warmUp(sale);
        HotSkuSnapshot before = snapshotOf(A);
        SharedRedis.forget(activityId);
        stock.warmUp(sale);
        assertThat(snapshotOf(A).version()).as("a fresh load starts at 0 moves again").endsWith("/0")
                .isNotEqualTo(before.version());

        assertThat(hotStore.repair(activityId, new LedgerRepair(A, new LedgerFigures(20, 0, 0, 20), Map.of(),
                Set.of(), before.version(), 3, 5))).isEqualTo(LedgerRepairResult.RETRY);
    }

    @Test
    void givenTheLedgerKeyDeleted_whenRepaired_thenTheSkuSellsAgainWithItsLimitAndSegments() {
        stock.warmUp(sale);
        reserve(ANN, line(B, 2));
        redis.del(RedisKeys.stock(activityId));
        HotSkuSnapshot lost = snapshotOf(B);
        assertThat(lost.figures()).isEqualTo(LedgerFigures.ZERO);
        assertThat(lost.version()).as("the moves counted with the ledger are gone with it").endsWith("/0");
        assertThat(stock.reserve(new ReservationRequest(ReservationId.of(activityId, "x1"), BOB, new RequestId("x1"),
                List.of(line(B, 1)), Instant.now()))).isEqualTo(new ReservationOutcome.UnknownSku(B));

        assertThat(hotStore.repair(activityId, new LedgerRepair(B, new LedgerFigures(4, 2, 0, 2), Map.of(ANN, 2L),
                Set.of(), lost.version(), 1, 2))).isEqualTo(LedgerRepairResult.REPAIRED);

        assertThat(stock.reserve(new ReservationRequest(ReservationId.of(activityId, "x2"), ANN, new RequestId("x2"),
                List.of(line(B, 1)), Instant.now()))).isEqualTo(new ReservationOutcome.LimitExceeded(B, 2, 2));
        reserve(BOB, line(B, 2));
        assertThat(snapshotOf(B).figures()).isEqualTo(new LedgerFigures(4, 4, 0, 0));
        assertThat(snapshotOf(A).figures()).as("SKU a is still lost until it is repaired too").isEqualTo(LedgerFigures.ZERO);
    }

    @Test
    void givenAnActivityNotLoaded_whenRepaired_thenNotLoadedAndNothingWritten() {
        assertThat(hotStore.repair(activityId, new LedgerRepair(A, new LedgerFigures(1, 0, 0, 1), Map.of(), Set.of(),
                "-|-|-", 1, 1))).isEqualTo(LedgerRepairResult.NOT_LOADED);
        assertThat(redis.exists(RedisKeys.stock(activityId))).isZero();
    }

    @Test
    void givenReservationsRacingRepairsOfStaleSnapshots_thenNoStaleRepairEverLandsAndTheLedgerStaysConsistent()
            throws Exception {
        stock.warmUp(sale);
        int buyers = 40;
        Thread reserving = Thread.ofPlatform().start(() -> {
            for (int b = 0; b < buyers; b++) {
                String token = UUID.randomUUID().toString().replace("-", "");
                stock.reserve(new ReservationRequest(ReservationId.of(activityId, token), new BuyerId("b" + b),
                        new RequestId("k" + b), List.of(line(A, 1)), Instant.now()));
            }
        });
        int retries = 0;
        int repaired = 0;
        while (reserving.isAlive()) {
            HotSkuSnapshot seen = snapshotOf(A);
            // Rewrites exactly what was seen: harmless when nothing moved, a lost reservation if a stale one landed.
            LedgerRepairResult result = hotStore.repair(activityId, new LedgerRepair(A,
                    new LedgerFigures(seen.figures().total(), seen.figures().reserved(), seen.figures().sold(),
                    seen.figures().available()), seen.holdings(), Set.of(), seen.version(), 3, 5));
            if (result == LedgerRepairResult.RETRY) {
                retries++;
            } else {
                repaired++;
            }
        }
        reserving.join();
        System.out.printf("[reconcile-race] repairs landed %d, refused as stale %d%n", repaired, retries);

        HotSkuSnapshot after = snapshotOf(A);
        long reservedUnits = after.reservations().stream().mapToLong(HotReservation::units).sum();
        assertThat(after.reservations()).hasSize(20);
        assertThat(after.figures()).isEqualTo(new LedgerFigures(20, reservedUnits, 0, 0));
        assertThat(after.holdings().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(20);
        assertThat(segmentsOf(A, 3)).allMatch(units -> units >= 0);
    }

    // ---- re-drive ----

    @Test
    void givenAReservationWhoseEventWasLost_whenReDriven_thenTheOutboxHoldsItAgainAsItWasAccepted() {
        stock.warmUp(sale);
        Reservation lost = reserve(ANN, line(A, 2), line(B, 1));
        redis.del(RedisKeys.outbox(activityId));

        assertThat(hotStore.redrive(lost.id())).isTrue();

        List<StreamMessage<String, String>> entries = redis.xrange(RedisKeys.outbox(activityId),
                io.lettuce.core.Range.create("-", "+"));
        assertThat(entries).hasSize(1);
        assertThat(entries.getFirst().getBody()).containsOnlyKeys(lost.id().value());
        assertThat(OutboxEntryDecoder.decodeAll(activityId, entries.getFirst().getId(), entries.getFirst().getBody()))
                .extracting(OutboxEntry::reservation).containsExactly(lost);
        assertThat(snapshotOf(A).reservations().getFirst().inPipeline()).isTrue();
    }

    @Test
    void givenAReservationNoLongerReserved_whenReDriven_thenNothingIsAppended() {
        stock.warmUp(sale);
        Reservation confirmed = reserve(ANN, line(A, 1));
        stock.confirm(confirmed.id());
        long length = redis.xlen(RedisKeys.outbox(activityId));

        assertThat(hotStore.redrive(confirmed.id())).isFalse();
        assertThat(hotStore.redrive(ReservationId.of(activityId, "nothere"))).isFalse();
        assertThat(redis.xlen(RedisKeys.outbox(activityId))).isEqualTo(length);
    }

    // ---- adjust ----

    @Test
    void givenAnIncreaseOnASegmentedSku_thenTotalAndAvailableGrowSpreadOverTheSegmentsAndOnlyOnce() {
        stock.warmUp(sale);
        reserve(ANN, line(A, 2));

        assertThat(hotStoreAdjustments.adjust(activityId, A, 7,
                   1)).isEqualTo(new LedgerAdjustment.Applied(new StockLedger(27, 2, 0)));
        assertThat(hotStoreAdjustments.adjust(activityId, A, 7, 1)).isEqualTo(new LedgerAdjustment.AlreadyApplied());

        assertThat(ledgerOf(A)).isEqualTo(new StockLedger(27, 2, 0));
        assertThat(segmentsOf(A, 3).stream().mapToLong(Long::longValue).sum()).isEqualTo(25);
    }

    @Test
    void givenAReductionAcrossSegments_thenNoSegmentGoesNegativeAndOneTooLargeIsRefusedWithNothingMoved() {
        stock.warmUp(sale);
        reserve(ANN, line(A, 5));
        reserve(BOB, line(A, 5));
        List<Long> before = segmentsOf(A, 3);

        assertThat(hotStoreAdjustments.adjust(activityId, A, -11, 2)).isEqualTo(new LedgerAdjustment.Refused(10));
        assertThat(segmentsOf(A, 3)).isEqualTo(before);
        assertThat(hotStoreAdjustments.adjust(activityId, A, -9,
                   3)).isEqualTo(new LedgerAdjustment.Applied(new StockLedger(11, 10, 0)));

        assertThat(segmentsOf(A, 3)).allMatch(units -> units >= 0);
        assertThat(segmentsOf(A, 3).stream().mapToLong(Long::longValue).sum()).isEqualTo(1);
        assertThat(ledgerOf(A)).isEqualTo(new StockLedger(11, 10, 0));
    }

    @Test
    void givenNoActivityOrNoLedger_thenTheAdjustmentIsNotApplied() {
        assertThat(hotStoreAdjustments.adjust(activityId, A, 1, 4)).isEqualTo(new LedgerAdjustment.NotLoaded());
        stock.warmUp(sale);
        assertThat(hotStoreAdjustments.adjust(activityId, new SkuId("zz"), 1,
                   4)).isEqualTo(new LedgerAdjustment.UnknownSku());
    }
}
