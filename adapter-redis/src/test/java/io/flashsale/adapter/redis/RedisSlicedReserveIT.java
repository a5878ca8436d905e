package io.flashsale.adapter.redis;

import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BucketLimit;
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
import io.flashsale.domain.stock.SkuStock;
import io.flashsale.domain.stock.StockLedger;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.flashsale.adapter.redis.SlicedSale.THREE;
import static io.flashsale.adapter.redis.SlicedSale.buyerAt;
import static io.flashsale.adapter.redis.SlicedSale.token;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The reserve path of a sale in slices (ADR 109) on the real Redis, standalone or the cluster: every slice loaded with
 * its share, an attempt decided in the slice its id names (the buyer's home) on that slice's share alone, an id made
 * for another slice count refused with nothing moved, and every later move and read of a reservation in its slice.
 * A sale of three slices ({@link SlicedSale}): PLAIN 30 units (10 a slice), SPLIT 31 units in 4 segments (11, 10, 10),
 * 2 a buyer.
 */
@Timeout(60)
class RedisSlicedReserveIT {

    private static final SkuId PLAIN = new SkuId("plain");
    private static final SkuId SPLIT = new SkuId("split");
    private static final Instant NOW = Instant.now();

    private final RedisClusterCommands<String, String> redis = SharedRedis.commands();
    private final RedisStockReservationAdapter adapter = SharedRedis.adapter();
    private final SliceFixture fixture = new SliceFixture(redis);
    private final RedisSliceStock sliceStock = new RedisSliceStock(redis, activityId -> { });
    private final Activity sale = sale(SlicedSale.newId("sr"), THREE);
    private final List<SaleSlice> slices = SliceFixture.slicesOf(sale);
    private final List<Activity> others = new ArrayList<>();

    @AfterEach
    void forget() {
        fixture.forget(sale);
        others.forEach(fixture::forget);
        SharedRedis.forget(sale.id());
    }

    @Test
    void givenASaleOfThreeSlices_whenWarmedUp_thenEachSliceHoldsItsShare_theStockIsTheirSum_andAgainChangesNothing() {
        assertThat(adapter.stock(sale.id())).as("before warm-up").isEmpty();

        List<SkuStock> warmed = adapter.warmUp(sale);

        assertThat(warmed).containsExactly(new SkuStock(PLAIN, StockLedger.of(30)), new SkuStock(SPLIT,
                StockLedger.of(31)));
        assertThat(adapter.stock(sale.id())).contains(warmed);
        assertThat(slices).extracting(slice -> fixture.ledger(slice, PLAIN)).containsOnly(StockLedger.of(10));
        assertThat(slices).extracting(slice -> fixture.ledger(slice, SPLIT))
                .containsExactly(StockLedger.of(11), StockLedger.of(10), StockLedger.of(10));
        assertThat(fixture.segments(slices.get(0), SPLIT)).containsExactly(3L, 3L, 3L, 2L);
        assertThat(slices).extracting(slice -> redis.hget(RedisKeys.meta(slice), RedisKeys.META_SLICES))
                .containsOnly("3");
        ReservationId held = reserved(buyerAt(1, "ann"), "k1", PLAIN, 2);

        assertThat(adapter.warmUp(sale)).as("a second warm-up").containsExactly(
                new SkuStock(PLAIN, new StockLedger(30, 2, 0)), new SkuStock(SPLIT, StockLedger.of(31)));
        assertThat(fixture.ledger(slices.get(1), PLAIN)).isEqualTo(new StockLedger(10, 2, 0));
        assertThat(adapter.findReservation(held)).isPresent();
    }

    @Test
    void givenASaleOfOneSlice_thenItsMetaHoldsNoSliceCount_andItsCountIsOne() {
        Activity single = sale(SlicedSale.newId("sr1"), SaleSlices.ONE);
        others.add(single);

        adapter.warmUp(single);

        assertThat(redis.hexists(RedisKeys.meta(single.id()), RedisKeys.META_SLICES)).isFalse();
        assertThat(adapter.slices(single.id())).isEqualTo(SaleSlices.ONE);
    }

    @Test
    void givenASaleNotLoaded_thenItsCountIsOneForAMoment_soItsWarmUpIsSeenAtOnceHereAndSoonElsewhere() {
        RedisStockReservationAdapter other = SharedRedis.adapter(SharedRedis.connectionCommands(),
                SharedRedis.registry());
        assertThat(adapter.slices(sale.id())).isEqualTo(SaleSlices.ONE);
        assertThat(other.slices(sale.id())).isEqualTo(SaleSlices.ONE);

        adapter.warmUp(sale);

        assertThat(adapter.slices(sale.id())).as("the instance that warmed it up").isEqualTo(THREE);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                assertThat(other.slices(sale.id())).as("another instance, after its memory of 'not loaded'")
                        .isEqualTo(THREE));
    }

    @Test
    void givenSomeSlicesLoaded_thenTheSaleHasNoStockYet() {
        fixture.warmUp(slices.get(0), sale);
        fixture.warmUp(slices.get(2), sale);

        assertThat(adapter.stock(sale.id())).as("slice 1 is not loaded").isEmpty();
        assertThat(adapter.reserve(attempt(buyerAt(1, "ann"), "k1", PLAIN, 1)))
                .isInstanceOf(ReservationOutcome.NotReady.class);
    }

    @Test
    void givenAnAttempt_thenItIsDecidedInItsHomeSliceAlone() {
        adapter.warmUp(sale);
        BuyerId ann = buyerAt(1, "ann");

        ReservationId id = reserved(ann, "k1", PLAIN, 2);

        assertThat(id.value()).startsWith(sale.id().value() + ".1of3.");
        assertThat(slices).extracting(slice -> sliceStock.available(slice, PLAIN).orElseThrow())
                .containsExactly(10L, 8L, 10L);
        assertThat(adapter.holdings(sale.id(), ann)).isEqualTo(Map.of(PLAIN, 2L));
        assertThat(redis.hexists(RedisKeys.reservations(slices.get(1)), id.value())).isTrue();
        assertThat(redis.hexists(RedisKeys.reservations(slices.get(0)), id.value())).isFalse();
        assertThat(redis.xlen(RedisKeys.outbox(slices.get(1)))).as("the slice's own outbox").isEqualTo(1);
        assertThat(redis.xlen(RedisKeys.outbox(slices.get(0)))).isZero();
        assertThat(redis.hexists(RedisKeys.inFlight(slices.get(1)), id.value())).isTrue();
        assertThat(adapter.stock(sale.id()).orElseThrow().getFirst()).isEqualTo(
                new SkuStock(PLAIN, new StockLedger(30, 2, 0)));
    }

    @Test
    void givenAKeyedRetryInASlice_thenItIsReplayedWithTheSlicedId_andTheIndexKeepsOnlyItsToken() {
        adapter.warmUp(sale);
        BuyerId ann = buyerAt(2, "ann");
        ReservationId id = reserved(ann, "k1", PLAIN, 1);

        ReservationOutcome again = adapter.reserve(attempt(ann, "k1", PLAIN, 1));

        assertThat(again).isInstanceOfSatisfying(ReservationOutcome.Replayed.class,
                replayed -> assertThat(replayed.reservation().id()).isEqualTo(id));
        String entry = RedisRequestIndex.entry(redis, slices.get(2), RedisKeys.requestField(ann, new RequestId("k1")));
        assertThat(entry).isEqualTo(id.value().substring(id.value().lastIndexOf('.') + 1));
        assertThat(RedisKeys.requestedReservation(slices.get(2), new RequestId("k1"), entry)).isEqualTo(id);
        assertThat(adapter.confirm(id)).isTrue();
        assertThat(adapter.reserve(attempt(ann, "k1", PLAIN, 1))).as("its record left, MySQL has the order")
                .isEqualTo(new ReservationOutcome.Settled(id));
    }

    @Test
    void givenABuyersAttempts_thenTheLimitHoldsOverThemAll_inTheHomeSlice() {
        adapter.warmUp(sale);
        BuyerId ann = buyerAt(0, "ann");

        reserved(ann, "k1", PLAIN, 1);
        reserved(ann, "k2", PLAIN, 1);
        ReservationOutcome third = adapter.reserve(attempt(ann, "k3", PLAIN, 1));

        assertThat(third).isEqualTo(new ReservationOutcome.LimitExceeded(PLAIN, 2, 2));
        assertThat(adapter.holdings(sale.id(), ann)).isEqualTo(Map.of(PLAIN, 2L));
        assertThat(fixture.ledger(slices.get(0), PLAIN)).isEqualTo(new StockLedger(10, 2, 0));
    }

    @Test
    void givenTheHomeSliceEmpty_thenTheAttemptIsSoldOut_whileAnotherSliceStillHoldsUnits() {
        adapter.warmUp(sale);
        assertThat(sliceStock.take(slices.get(1), PLAIN, 1, 10)).hasValue(10);

        assertThat(adapter.reserve(attempt(buyerAt(1, "ann"), "k1", PLAIN, 1)))
                .isEqualTo(new ReservationOutcome.SoldOut(PLAIN));
        assertThat(sliceStock.take(slices.get(2), PLAIN, 2, 9)).hasValue(9);
        assertThat(adapter.reserve(attempt(buyerAt(2, "bob"), "k1", PLAIN, 2)))
                .isEqualTo(new ReservationOutcome.InsufficientStock(PLAIN, 1));

        assertThat(sliceStock.available(slices.get(0), PLAIN)).hasValue(10);
        assertThat(adapter.reserve(attempt(buyerAt(0, "cat"), "k1", PLAIN, 2)))
                .isInstanceOf(ReservationOutcome.Reserved.class);
    }

    @Test
    void givenAnIdNamingAnotherSliceCount_thenTheAttemptIsNotReady_andNothingMoves() {
        adapter.warmUp(sale);
        BuyerId ann = buyerAt(0, "ann");
        var bucket = new BucketLimit(10, 5, Duration.ofSeconds(1));
        List<ReservationId> ofOtherCounts = List.of(ReservationId.of(sale.id(), token()),
                ReservationId.of(new SaleSlice(sale.id(), 0, new SaleSlices(2)), token()),
                ReservationId.of(new SaleSlice(sale.id(), 1, new SaleSlices(2)), token()));

        for (ReservationId id : ofOtherCounts) {
            ReservationOutcome outcome = adapter.reserve(new ReservationRequest(id, ann, new RequestId("k1"),
                    List.of(new ReservationLine(PLAIN, 1)), NOW).behind(bucket));

            assertThat(outcome).as(id.value()).isInstanceOf(ReservationOutcome.NotReady.class);
            assertThat(redis.exists(RedisKeys.buyerBucket(id.slice(), ann))).as("no token taken").isZero();
        }
        assertThat(adapter.stock(sale.id()).orElseThrow()).containsExactly(new SkuStock(PLAIN, StockLedger.of(30)),
                new SkuStock(SPLIT, StockLedger.of(31)));
        assertThat(adapter.holdings(sale.id(), ann)).isEmpty();
        assertThat(RedisRequestIndex.entry(redis, slices.get(0), RedisKeys.requestField(ann, new RequestId("k1"))))
                .isNull();
        assertThat(redis.exists(RedisKeys.outbox(slices.get(0)))).isZero();
        assertThat(adapter.slices(sale.id())).isEqualTo(THREE);
        assertThat(adapter.reserve(attempt(ann, "k1", PLAIN, 1))).as("its own slice's id")
                .isInstanceOf(ReservationOutcome.Reserved.class);
    }

    @Test
    void givenACountRememberedThatIsNoLongerTheSales_thenTheAttemptIsNotReady_andTheCountIsReadAgain() {
        RedisStockReservationAdapter instance = SharedRedis.adapter(SharedRedis.connectionCommands(),
                SharedRedis.registry());
        instance.warmUp(sale);
        assertThat(instance.slices(sale.id())).isEqualTo(THREE);
        // The sale gone and loaded again in two slices behind this instance's back (no sale does this: the count is
        // fixed for a sale's life), so what it remembers is stale.
        fixture.forget(sale);
        Activity inTwo = sale(sale.id().value(), new SaleSlices(2));
        others.add(inTwo);
        adapter.warmUp(inTwo);

        ReservationOutcome outcome = instance.reserve(new ReservationRequest(ReservationId.of(slices.get(0), token()),
                new BuyerId("ann"), new RequestId("k1"), List.of(new ReservationLine(PLAIN, 1)), NOW));

        assertThat(outcome).isInstanceOf(ReservationOutcome.NotReady.class);
        assertThat(instance.slices(sale.id())).isEqualTo(new SaleSlices(2));
        assertThat(instance.stock(sale.id()).orElseThrow().getFirst()).isEqualTo(
                new SkuStock(PLAIN, StockLedger.of(30)));
    }

    @Test
    void givenReservationsInSliceTwo_thenEveryMoveAndReadOfThemActsOnSliceTwosKeys() {
        adapter.warmUp(sale);
        SaleSlice two = slices.get(2);
        BuyerId ann = buyerAt(2, "ann");
        BuyerId bob = buyerAt(2, "bob");
        ReservationId cancelled = reserved(ann, "k1", PLAIN, 1);
        ReservationId ordered = reserved(ann, "k2", SPLIT, 2);
        ReservationId failed = reserved(bob, "k1", PLAIN, 2);
        Instant cancelledAt = NOW.truncatedTo(ChronoUnit.MILLIS);

        assertThat(adapter.findReservation(cancelled)).hasValueSatisfying(reservation -> {
            assertThat(reservation.status()).isEqualTo(ReservationStatus.RESERVED);
            assertThat(reservation.buyerId()).isEqualTo(ann);
        });
        assertThat(adapter.release(cancelled, cancelledAt)).isTrue();
        assertThat(adapter.cancelledAt(cancelled)).contains(cancelledAt);
        assertThat(adapter.release(cancelled)).as("released once").isFalse();
        assertThat(adapter.confirm(ordered)).isTrue();
        assertThat(adapter.fail(failed)).isTrue();

        assertThat(fixture.ledger(two, PLAIN)).isEqualTo(new StockLedger(10, 2, 0));
        assertThat(fixture.ledger(two, SPLIT)).isEqualTo(new StockLedger(10, 0, 2));
        assertThat(adapter.findReservation(failed).orElseThrow().status()).isEqualTo(ReservationStatus.FAILED);
        assertThat(adapter.findReservation(ordered)).as("an order's record leaves").isEmpty();
        assertThat(adapter.holdings(sale.id(), ann)).isEqualTo(Map.of(SPLIT, 2L));

        var restore = new PendingRestore(ordered, ann, new RequestId("k2"), List.of(new ReservationLine(SPLIT, 2)),
                ReservationStatus.EXPIRED);
        assertThat(adapter.restore(restore)).contains(ReservationStatus.ORDERED);
        assertThat(adapter.restore(restore)).as("restored once").contains(ReservationStatus.EXPIRED);
        assertThat(fixture.ledger(two, SPLIT)).isEqualTo(StockLedger.of(10));
        assertThat(adapter.holdings(sale.id(), ann)).isEmpty();

        // An order's record is kept only by sales loaded before ADR 71; mark_paid.lua settles one it finds.
        Reservation paid = new Reservation(ReservationId.of(two, token()), sale.id(), bob, new RequestId("k9"),
                List.of(new ReservationLine(PLAIN, 1)), ReservationStatus.ORDERED, NOW);
        redis.hset(RedisKeys.reservations(two), paid.id().value(), ReservationRecord.of(paid).encode());
        assertThat(adapter.markPaid(paid.id())).isTrue();
        assertThat(redis.hexists(RedisKeys.reservations(two), paid.id().value())).isFalse();

        for (SaleSlice untouched : List.of(slices.get(0), slices.get(1))) {
            assertThat(fixture.ledger(untouched, PLAIN)).isEqualTo(StockLedger.of(10));
            assertThat(redis.hlen(RedisKeys.reservations(untouched))).isZero();
        }
    }

    @Test
    void givenSlicesLoadedOrNot_thenAvailableAnswersPerSlice_andNothingForAnUnloadedSliceOrAnUnknownSku() {
        fixture.warmUp(slices.get(1), sale);
        reserved(buyerAt(1, "ann"), "k1", SPLIT, 2);

        assertThat(sliceStock.available(slices.get(1), SPLIT)).hasValue(8);
        assertThat(sliceStock.available(slices.get(1), PLAIN)).hasValue(10);
        assertThat(sliceStock.available(slices.get(0), PLAIN)).as("not loaded").isEmpty();
        assertThat(sliceStock.available(slices.get(1), new SkuId("nope"))).as("no such SKU").isEmpty();
    }

    /** The buyer's attempt at this test's sale, its id naming the buyer's home slice. */
    private ReservationRequest attempt(BuyerId buyer, String requestId, SkuId sku, int units) {
        return SlicedSale.attempt(sale, buyer, requestId, NOW, new ReservationLine(sku, units));
    }

    private ReservationId reserved(BuyerId buyer, String requestId, SkuId sku, int units) {
        return SlicedSale.reserved(adapter, attempt(buyer, requestId, sku, units)).id();
    }

    private static Activity sale(String id, SaleSlices slices) {
        return SlicedSale.sale(id, "sliced reserve", NOW, slices, ActivityItem.of(PLAIN.value(), 30),
                new ActivityItem(SPLIT, 31, null, 4));
    }
}
