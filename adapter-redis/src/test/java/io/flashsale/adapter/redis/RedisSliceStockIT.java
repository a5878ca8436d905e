package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.adapter.redis.internal.ScriptRefusedException;
import io.flashsale.application.reservation.port.out.StockReturnListener;
import io.flashsale.application.shared.port.out.HotStoreFiguresDisagreeException;
import io.flashsale.application.slice.port.out.SliceStockPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import io.flashsale.domain.stock.SkuStock;
import io.flashsale.domain.stock.StockLedger;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The two halves of a stock transfer between slices ({@code transfer_out.lua}, {@code transfer_in.lua}) on the real
 * Redis, standalone or the cluster: a take gives at most what the slice has available and never a reserved unit, each
 * step happens once per transfer id and a repeat answers as the first call did, and a slice not loaded moves nothing.
 * A sale of three slices: PLAIN 30 units (10 a slice), SPLIT 31 units in 4 segments (11, 10, 10).
 */
@Timeout(60)
class RedisSliceStockIT {

    private static final SkuId PLAIN = new SkuId("plain");
    private static final SkuId SPLIT = new SkuId("split");
    private static final SaleSlices THREE = new SaleSlices(3);

    private final RedisClusterCommands<String, String> redis = SharedRedis.commands();
    private final SliceFixture slices = new SliceFixture(redis);
    private final List<ActivityId> announced = new CopyOnWriteArrayList<>();
    private final SliceStockPort port = new RedisSliceStock(redis, announced::add);
    private final Activity sale = sale("sl-" + UUID.randomUUID().toString().substring(0, 12));
    private final SaleSlice zero = new SaleSlice(sale.id(), 0, THREE);
    private final SaleSlice one = new SaleSlice(sale.id(), 1, THREE);
    private final SaleSlice two = new SaleSlice(sale.id(), 2, THREE);

    @BeforeEach
    void warmUpEverySlice() {
        slices.warmUp(sale);
    }

    @AfterEach
    void forget() {
        slices.forget(sale);
        SharedRedis.forget(sale.id());
    }

    @Test
    void givenFewerAvailableThanAsked_thenTheTakeGivesWhatIsAvailableAndRemembersIt() {
        reserve("ann", PLAIN, 3);
        reserve("bob", PLAIN, 2);
        assertThat(slices.ledger(zero, PLAIN)).isEqualTo(new StockLedger(10, 5, 0));

        assertThat(port.take(zero, PLAIN, 1, 8)).hasValue(5);

        assertThat(slices.ledger(zero, PLAIN)).as("reserved units stay").isEqualTo(new StockLedger(5, 5, 0));
        assertThat(slices.field(zero, RedisKeys.transferOutField(PLAIN, 1))).isEqualTo("5");
        assertThat(port.take(zero, PLAIN, 1, 8)).as("a repeat").hasValue(5);
        assertThat(slices.ledger(zero, PLAIN)).isEqualTo(new StockLedger(5, 5, 0));
    }

    @Test
    void givenEnoughAvailable_thenTheTakeGivesEveryUnitAsked_andTheTotalAndAvailableFallByThem() {
        assertThat(port.take(one, PLAIN, 2, 4)).hasValue(4);

        assertThat(slices.ledger(one, PLAIN)).isEqualTo(new StockLedger(6, 0, 0));
        assertThat(slices.ledger(two, PLAIN)).as("another slice").isEqualTo(new StockLedger(10, 0, 0));
        assertThat(slices.ledger(one, SPLIT)).as("another SKU").isEqualTo(new StockLedger(10, 0, 0));
    }

    @Test
    void givenASegmentedSku_thenTheTakeEmptiesItsSegmentsInTurnAndLeavesNoneBelowZero() {
        assertThat(slices.segments(zero, SPLIT)).containsExactly(3L, 3L, 3L, 2L);
        reserve("ann", SPLIT, 2);

        assertThat(port.take(zero, SPLIT, 3, 7)).hasValue(7);
        assertThat(slices.ledger(zero, SPLIT)).isEqualTo(new StockLedger(4, 2, 0));
        assertThat(slices.segments(zero, SPLIT)).allSatisfy(units -> assertThat(units).isNotNegative())
                .as("what is left").satisfies(left -> assertThat(left.stream().mapToLong(Long::longValue).sum())
                        .isEqualTo(2));

        assertThat(port.take(zero, SPLIT, 4, 5)).as("fewer left than asked").hasValue(2);
        assertThat(slices.segments(zero, SPLIT)).containsOnly(0L);
        assertThat(slices.ledger(zero, SPLIT)).isEqualTo(new StockLedger(2, 2, 0));
    }

    @Test
    void givenNothingAvailable_thenTheTakeGivesZeroAndKeepsThatAnswerWhenUnitsComeBack() {
        assertThat(port.take(one, PLAIN, 5, 10)).hasValue(10);
        assertThat(port.take(one, PLAIN, 6, 3)).hasValue(0);
        assertThat(port.credit(one, PLAIN, 7, 4)).isTrue();

        assertThat(port.take(one, PLAIN, 6, 3)).as("the first answer stands").hasValue(0);
        assertThat(slices.ledger(one, PLAIN)).isEqualTo(new StockLedger(4, 0, 0));
    }

    @Test
    void givenATakeRepeatedWithOtherUnits_thenTheFirstAnswerStandsAndNothingMoreIsTaken() {
        assertThat(port.take(two, SPLIT, 8, 2)).hasValue(2);

        assertThat(port.take(two, SPLIT, 8, 9)).hasValue(2);
        assertThat(slices.ledger(two, SPLIT)).isEqualTo(new StockLedger(8, 0, 0));
    }

    @Test
    void givenACredit_thenTheSlicesTotalAndAvailableRiseByTheUnitsSpreadOverItsSegments_andTheReturnIsAnnounced() {
        assertThat(slices.segments(one, SPLIT)).containsExactly(3L, 3L, 2L, 2L);

        assertThat(port.credit(one, SPLIT, 9, 6)).isTrue();

        assertThat(slices.segments(one, SPLIT)).containsExactly(5L, 5L, 3L, 3L);
        assertThat(slices.ledger(one, SPLIT)).isEqualTo(new StockLedger(16, 0, 0));
        assertThat(slices.field(one, RedisKeys.transferInField(SPLIT, 9))).isEqualTo("6");
        assertThat(announced).containsExactly(sale.id());
    }

    @Test
    void givenARepeatedCredit_thenItAddsNothingAndStillSaysTheSliceHoldsTheUnits() {
        assertThat(port.credit(two, PLAIN, 10, 6)).isTrue();

        assertThat(port.credit(two, PLAIN, 10, 6)).isTrue();
        assertThat(slices.ledger(two, PLAIN)).isEqualTo(new StockLedger(16, 0, 0));
        assertThat(announced).as("told again: the first notice may have been lost").hasSize(2);
    }

    @Test
    void givenACreditOfNoUnits_thenNothingMovesAndNothingIsAnnounced() {
        assertThat(port.credit(two, PLAIN, 11, 0)).isTrue();

        assertThat(slices.ledger(two, PLAIN)).isEqualTo(new StockLedger(10, 0, 0));
        assertThat(announced).isEmpty();
    }

    @Test
    void aTransferTakesFromOneSliceAndCreditsAnother_andTheSaleKeepsEveryUnit() {
        reserve("ann", PLAIN, 4);
        OptionalLong taken = port.take(zero, PLAIN, 12, 9);

        assertThat(taken).hasValue(6);
        assertThat(port.credit(two, PLAIN, 12, taken.getAsLong())).isTrue();
        assertThat(slices.ledger(zero, PLAIN)).isEqualTo(new StockLedger(4, 4, 0));
        assertThat(slices.ledger(two, PLAIN)).isEqualTo(new StockLedger(16, 0, 0));
        assertThat(slices.totalOverSlices(sale, PLAIN)).isEqualTo(30);
    }

    @Test
    void givenATransferAndAReservation_thenEachSlicesLedgersSayWhatItHolds_andASliceNotLoadedHasNone() {
        reserve("ann", PLAIN, 4);
        port.credit(two, PLAIN, 16, port.take(zero, PLAIN, 16, 3).orElseThrow());

        assertThat(port.stock(zero)).hasValueSatisfying(ledgers -> assertThat(ledgers).containsExactly(
                new SkuStock(PLAIN, new StockLedger(7, 4, 0)), new SkuStock(SPLIT, new StockLedger(11, 0, 0))));
        assertThat(port.stock(two)).hasValueSatisfying(ledgers -> assertThat(ledgers).containsExactly(
                new SkuStock(PLAIN, new StockLedger(13, 0, 0)), new SkuStock(SPLIT, new StockLedger(10, 0, 0))));
        assertThat(port.stock(new SaleSlice(new ActivityId("sl-never-warmed"), 1, THREE))).isEmpty();
    }

    @Test
    void givenASkuWhoseFiguresTheSliceLost_thenItsLedgersAreReportedAsDisagreeing_notAsAScriptError() {
        redis.hdel(RedisKeys.stock(one), RedisKeys.stockField(PLAIN, "total"), RedisKeys.stockField(PLAIN, "sold"),
                RedisKeys.segmentField(PLAIN, 1));

        assertThatThrownBy(() -> port.stock(one)).isInstanceOf(HotStoreFiguresDisagreeException.class)
                .hasMessageContaining(PLAIN.value());
        assertThat(port.stock(two)).as("another slice").isPresent();
    }

    @Test
    void givenASliceNotLoaded_thenTheTakeIsEmptyTheCreditIsFalse_andNothingIsWritten() {
        Activity unloaded = sale("sl-" + UUID.randomUUID().toString().substring(0, 12));
        SaleSlice notWarmed = new SaleSlice(unloaded.id(), 2, THREE);
        try {
            assertThat(port.take(notWarmed, PLAIN, 13, 5)).isEmpty();
            assertThat(port.credit(notWarmed, PLAIN, 13, 5)).isFalse();

            assertThat(redis.exists(RedisKeys.meta(notWarmed))).isZero();
            assertThat(redis.exists(RedisKeys.stock(notWarmed))).isZero();
            assertThat(announced).isEmpty();
        } finally {
            slices.forget(unloaded);
        }
    }

    @Test
    void givenASliceWhoseMetaSaysItIsNotReady_thenNothingMoves() {
        // What a rebuild in progress leaves: the stock hash there, meta not ready.
        redis.hset(RedisKeys.meta(one), RedisKeys.META_READY, "0");

        assertThat(port.take(one, PLAIN, 14, 5)).isEmpty();
        assertThat(port.credit(one, PLAIN, 15, 5)).isFalse();
        assertThat(slices.field(one, RedisKeys.stockField(PLAIN, "total"))).isEqualTo("10");
        assertThat(slices.field(one, RedisKeys.transferOutField(PLAIN, 14))).isNull();
    }

    @Test
    void givenASkuTheSliceDoesNotHold_thenBothStepsSayTheSliceDisagreesWithItsSale_andWriteNothing() {
        SkuId unknown = new SkuId("nope");

        assertThatThrownBy(() -> port.take(one, unknown, 16, 5)).isInstanceOf(HotStoreFiguresDisagreeException.class)
                .hasMessageContaining("nope");
        assertThatThrownBy(() -> port.credit(one, unknown, 16, 5))
                .isInstanceOf(HotStoreFiguresDisagreeException.class);
        assertThat(redis.hexists(RedisKeys.stock(one), RedisKeys.transferOutField(unknown, 16))).isFalse();
        assertThat(redis.hexists(RedisKeys.stock(one), RedisKeys.transferInField(unknown, 16))).isFalse();
    }

    @Test
    void givenATransferIdOrUnitsThatAreNotOneWholeNumber_thenTheScriptsRefuseThem() {
        String[] keys = {RedisKeys.meta(one), RedisKeys.stock(one)};
        LuaScript out = LuaScript.load(redis, "transfer_out");
        LuaScript in = LuaScript.load(redis, "transfer_in");

        for (String[] args : List.of(new String[] {"plain", "07", "1"}, new String[] {"plain", "-7", "1"},
                new String[] {"plain", "7", "-1"}, new String[] {"plain", "7", "1.5"},
                new String[] {"plain", "7", "1000000000000000"})) {
            assertThatThrownBy(() -> out.run(redis, ScriptOutputType.MULTI, keys, args))
                    .isInstanceOf(ScriptRefusedException.class);
            assertThatThrownBy(() -> in.run(redis, ScriptOutputType.MULTI, keys, args))
                    .isInstanceOf(ScriptRefusedException.class);
        }
        assertThatThrownBy(() -> port.take(one, PLAIN, 17, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(slices.ledger(one, PLAIN)).isEqualTo(new StockLedger(10, 0, 0));
    }

    @Test
    void givenACreditThroughTheHotStore_thenAnotherInstanceHearsThatUnitsCameBack() {
        try (RedisHotStore store = RedisHotStore.connect(SharedRedis.settings(Duration.ofSeconds(10)),
                SharedRedis.registry());
             RedisHotStore other = RedisHotStore.connect(SharedRedis.settings(Duration.ofSeconds(10)),
                     SharedRedis.registry())) {
            List<ActivityId> heard = new CopyOnWriteArrayList<>();
            other.stockReturns().subscribe(new StockReturnListener() {
                @Override
                public void returned(ActivityId activityId) {
                    heard.add(activityId);
                }

                @Override
                public void missedSome() {
                }
            });

            assertThat(store.sliceStock().take(zero, PLAIN, 18, 3)).hasValue(3);
            assertThat(store.sliceStock().credit(one, PLAIN, 18, 3)).isTrue();

            await().atMost(5, TimeUnit.SECONDS).untilAsserted(() -> assertThat(heard).contains(sale.id()));
        }
    }

    private void reserve(String buyer, SkuId sku, int units) {
        var id = ReservationId.of(zero, UUID.randomUUID().toString().replace("-", ""));
        ReservationOutcome outcome = SharedRedis.adapter().reserve(new ReservationRequest(id, new BuyerId(buyer),
                new RequestId("k-" + buyer), List.of(new ReservationLine(sku, units)), Instant.now()));
        assertThat(outcome).isInstanceOf(ReservationOutcome.Reserved.class);
    }

    private static Activity sale(String id) {
        Instant now = Instant.now();
        return new Activity(new ActivityId(id), "slices", now.minusSeconds(60), now.plusSeconds(3600),
                new PurchaseLimit(5), Duration.ofMinutes(15),
                List.of(ActivityItem.of(PLAIN.value(), 30), new ActivityItem(SPLIT, 31, null, 4)), false, THREE);
    }
}
