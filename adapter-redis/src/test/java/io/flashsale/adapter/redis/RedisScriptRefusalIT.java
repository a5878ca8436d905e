package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.adapter.redis.internal.ReserveScriptCall;
import io.flashsale.adapter.redis.internal.ScriptRefusedException;
import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.stock.IllegalStockMoveException;
import io.flashsale.domain.stock.StockLedger;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The scripts refuse what the reference model refuses, whoever calls them: a SKU named twice, a quantity below 1, a
 * move that would take a counter below zero. The refusal writes nothing and reaches the caller as an exception.
 */
class RedisScriptRefusalIT {

    private static final Instant NOW = Instant.now();
    private static final SkuId A = new SkuId("a");
    private static final SkuId B = new SkuId("b");
    private static final BuyerId ANN = new BuyerId("ann");

    private final RedisCommands<String, String> redis = SharedRedis.connection().sync();
    private final RedisStockReservationAdapter adapter = SharedRedis.adapter();
    private final ActivityId activity = new ActivityId("refuse-" + UUID.randomUUID().toString().substring(0, 8));
    private final LuaScript reserve = LuaScript.load(redis, "reserve");

    @AfterEach
    void forgetTheActivity() {
        SharedRedis.forget(activity);
    }

    private void warmUp() {
        adapter.warmUp(new Activity(activity, "refusals", NOW.minus(Duration.ofMinutes(1)), NOW.plus(Duration.ofHours(1)),
                new PurchaseLimit(5), Activity.DEFAULT_PAYMENT_TIMEOUT,
                List.of(new ActivityItem(A, 10, null, 3), ActivityItem.of("b", 4))));
    }

    private ReservationRequest request(ReservationLine... lines) {
        return new ReservationRequest(ReservationId.of(activity, UUID.randomUUID().toString().replace("-", "")), ANN,
                new RequestId("r" + UUID.randomUUID().toString().substring(0, 8)), List.of(lines), NOW);
    }

    private Reservation reserved(ReservationLine... lines) {
        ReservationOutcome outcome = adapter.reserve(request(lines));
        assertThat(outcome).isInstanceOf(ReservationOutcome.Reserved.class);
        return ((ReservationOutcome.Reserved) outcome).reservation();
    }

    /** Where an attempt's lines text goes among its arguments (reserve.lua's +3). */
    private static final int LINES_ARGUMENT = 3;

    /** reserve.lua's arguments for one attempt of one valid line, its (sku, quantity) pairs replaced. */
    private String[] reserveArguments(String... pairs) {
        return ReserveScriptCall.arguments(List.of(attemptWithPairs(request(new ReservationLine(A, 1)), pairs)));
    }

    /** The attempt of {@code request} judged by Redis TIME, its lines replaced by the (sku, quantity) {@code pairs} as "sku:q,sku:q". */
    static ReserveScriptCall.Attempt attemptWithPairs(ReservationRequest request, String... pairs) {
        ReserveScriptCall.Attempt valid = ReserveScriptCall.Attempt.of(request, true);
        String[] args = valid.arguments().clone();
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < pairs.length; i += 2) {
            lines.add(pairs[i] + ":" + pairs[i + 1]);
        }
        args[LINES_ARGUMENT] = String.join(",", lines);
        return new ReserveScriptCall.Attempt(request, valid.header(), args, valid.bucketKey());
    }

    /** One call of reserve.lua, its single attempt's reply read as the adapter reads it. */
    private ReservationOutcome reserveDirectly(String... pairs) {
        List<Object> reply = reserve.run(redis, ScriptOutputType.MULTI, ReserveScriptCall.keys(activity),
                reserveArguments(pairs));
        return ReserveScriptCall.outcome(ReserveScriptCall.reply(reply, 0), request(new ReservationLine(A, 1)));
    }

    private void assertNothingWritten() {
        assertThat(adapter.stock(activity).orElseThrow()).extracting(stock -> stock.ledger())
                .containsExactly(StockLedger.of(10), StockLedger.of(4));
        assertThat(redis.hlen(RedisKeys.reservations(activity))).isZero();
        assertThat(RedisRequestIndex.size(redis, activity)).isZero();
        assertThat(redis.hlen(RedisKeys.holdings(activity))).isZero();
        assertThat(redis.exists(RedisKeys.outbox(activity))).isZero();
    }

    @Test
    void givenTheSameSkuTwiceInOneCall_thenRefusedAndNoSegmentGoesNegative() {
        warmUp();

        assertThatThrownBy(() -> reserveDirectly("a", "6", "b", "1", "a", "6"))
                .isInstanceOf(ScriptRefusedException.class).isInstanceOf(IllegalStockMoveException.class)
                .hasMessageContaining("appears twice");

        assertNothingWritten();
        for (int s = 1; s <= 3; s++) {
            assertThat(Long.parseLong(redis.hget(RedisKeys.stock(activity), RedisKeys.segmentField(A, s))))
                    .isNotNegative();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "1.5", "2e1", "", "one"})
    void givenAQuantityThatIsNotAWholeNumberOfAtLeastOne_thenRefused(String quantity) {
        warmUp();

        assertThatThrownBy(() -> reserveDirectly("b", "1", "a", quantity))
                .isInstanceOf(ScriptRefusedException.class).hasMessageContaining("not positive");

        assertNothingWritten();
    }

    @Test
    void givenReservedBelowWhatAConfirmTakes_thenTheConfirmIsRefusedAndNothingMoves() {
        warmUp();
        Reservation reservation = reserved(new ReservationLine(A, 2), new ReservationLine(B, 1));
        redis.hset(RedisKeys.stock(activity), RedisKeys.stockField(B, "reserved"), "0");

        assertThatThrownBy(() -> adapter.confirm(reservation.id())).isInstanceOf(IllegalStockMoveException.class)
                .hasMessageContaining("confirm.lua refused");

        assertThat(adapter.findReservation(reservation.id()).orElseThrow().status()).isEqualTo(ReservationStatus.RESERVED);
        assertThat(redis.hget(RedisKeys.stock(activity), RedisKeys.stockField(A, "reserved")))
                .as("no line moved, not even the first").isEqualTo("2");
        assertThat(redis.hget(RedisKeys.stock(activity), RedisKeys.stockField(A, "sold"))).isEqualTo("0");
    }

    @Test
    void givenAHoldingBelowWhatAReleaseGivesBack_thenTheReleaseIsRefusedAndNothingMoves() {
        warmUp();
        Reservation reservation = reserved(new ReservationLine(A, 2));
        redis.hset(RedisKeys.holdings(activity), RedisKeys.holdingField(ANN, A), "1");

        assertThatThrownBy(() -> adapter.release(reservation.id(), NOW)).isInstanceOf(IllegalStockMoveException.class)
                .hasMessageContaining("release.lua refused");

        assertThat(adapter.findReservation(reservation.id()).orElseThrow().status()).isEqualTo(ReservationStatus.RESERVED);
        assertThat(adapter.cancelledAt(reservation.id())).isEmpty();
        assertThat(adapter.stock(activity).orElseThrow().getFirst().ledger()).isEqualTo(new StockLedger(10, 2, 0));
        assertThat(adapter.holdings(activity, ANN)).isEqualTo(Map.of(A, 1L));
    }

    @Test
    void givenSoldBelowWhatARestoreGivesBack_thenTheRestoreIsRefusedAndNothingMoves() {
        warmUp();
        Reservation reservation = reserved(new ReservationLine(A, 3));
        assertThat(adapter.confirm(reservation.id())).isTrue();
        redis.hset(RedisKeys.stock(activity), RedisKeys.stockField(A, "sold"), "2");

        assertThatThrownBy(() -> adapter.restore(PendingRestore.of(reservation, ReservationStatus.EXPIRED)))
                .isInstanceOf(IllegalStockMoveException.class).hasMessageContaining("restore.lua refused");

        assertThat(redis.hexists(RedisKeys.reservations(activity), reservation.id().value()))
                .as("no tombstone: the order is still to restore").isFalse();
        assertThat(adapter.holdings(activity, ANN)).isEqualTo(Map.of(A, 3L));
    }
}
