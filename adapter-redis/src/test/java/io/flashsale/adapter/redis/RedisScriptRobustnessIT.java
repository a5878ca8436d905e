package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.adapter.redis.internal.ReserveScriptCall;
import io.flashsale.application.reference.InMemoryStockReservations;
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
import io.flashsale.domain.stock.SkuStock;
import io.flashsale.domain.stock.StockLedger;
import io.lettuce.core.FlushMode;
import io.lettuce.core.Range;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** Values reach the scripts only as data, whatever they contain; and a lost script cache heals itself. */
class RedisScriptRobustnessIT {

    private static final Instant NOW = Instant.now();

    private final RedisCommands<String, String> redis = SharedRedis.connection().sync();
    private final RedisStockReservationAdapter adapter = SharedRedis.adapter();

    private final List<ActivityId> activities = new ArrayList<>();

    @AfterEach
    void forgetTheActivities() {
        activities.forEach(SharedRedis::forget);
    }

    private ActivityId uniqueActivity(String prefix) {
        var id = new ActivityId(prefix + UUID.randomUUID().toString().substring(0, 8));
        activities.add(id);
        return id;
    }

    private static Activity sale(ActivityId id, ActivityItem... items) {
        return new Activity(id, "robustness", NOW.minus(Duration.ofMinutes(1)), NOW.plus(Duration.ofHours(1)),
                new PurchaseLimit(3), Activity.DEFAULT_PAYMENT_TIMEOUT, List.of(items));
    }

    private static ReservationRequest request(ActivityId activity, String buyer, String requestId,
                                              ReservationLine... lines) {
        return new ReservationRequest(ReservationId.of(activity, UUID.randomUUID().toString().replace("-", "")),
                new BuyerId(buyer), new RequestId(requestId), List.of(lines), NOW);
    }

    @Test
    void givenIdsThatLookLikeLuaOrNumbers_thenRedisAnswersExactlyAsTheModelAndUsesOnlyTheDocumentedKeys() {
        // Every id shape the domain allows that means something to Lua: comments, keywords, numerals.
        ActivityId activity = uniqueActivity("--_-");
        var model = new InMemoryStockReservations();
        Activity sale = sale(activity, ActivityItem.of("nil", 3), ActivityItem.of("1e3", 3),
                new ActivityItem(new SkuId("0x10"), 5, 2, 3), ActivityItem.of("--", 2), ActivityItem.of("__index", 1));
        assertThat(adapter.warmUp(sale)).isEqualTo(model.warmUp(sale));

        var steps = new ArrayList<ReservationRequest>();
        steps.add(request(activity, "--", "x--y", new ReservationLine(new SkuId("nil"), 2),
                new ReservationLine(new SkuId("1e3"), 1)));
        steps.add(request(activity, "--", "x--y", new ReservationLine(new SkuId("--"), 1)));
        steps.add(request(activity, "end", "ab_cd-EF", new ReservationLine(new SkuId("0x10"), 2),
                new ReservationLine(new SkuId("__index"), 1)));
        steps.add(request(activity, "end", "-1", new ReservationLine(new SkuId("0x10"), 1)));
        steps.add(request(activity, "0", "0", new ReservationLine(new SkuId("__index"), 1)));
        steps.add(request(activity, "0", "1", new ReservationLine(new SkuId("_G"), 1)));
        steps.add(request(activity, "x".repeat(64), "9".repeat(64), new ReservationLine(new SkuId("--"), 2)));
        for (ReservationRequest step : steps) {
            assertThat(adapter.reserve(step)).as(step.toString()).isEqualTo(model.reserve(step));
        }
        ReservationId first = steps.getFirst().id();
        assertThat(adapter.confirm(first)).isEqualTo(model.confirm(first)).isTrue();
        ReservationId third = steps.get(2).id();
        assertThat(adapter.release(third)).isEqualTo(model.release(third)).isTrue();

        assertThat(adapter.stock(activity)).isEqualTo(model.stock(activity));
        for (String buyer : List.of("--", "end", "0", "x".repeat(64))) {
            assertThat(adapter.holdings(activity, new BuyerId(buyer))).isEqualTo(model.holdings(activity, new BuyerId(buyer)));
        }
        for (ReservationRequest step : steps) {
            assertThat(adapter.findReservation(step.id())).isEqualTo(model.findReservation(step.id()));
        }
        List<String> index = RedisRequestIndex.keys(redis, activity);
        assertThat(keysOf(activity)).filteredOn(key -> !index.contains(key)).containsExactlyInAnyOrder(
                RedisKeys.meta(activity), RedisKeys.stock(activity), RedisKeys.holdings(activity),
                RedisKeys.reservations(activity), RedisKeys.outbox(activity), RedisKeys.inFlight(activity),
                RedisKeys.acceptedRequests(activity));
        assertThat(keysOf(activity)).as("the request index's buckets (ADR 0100)").filteredOn(index::contains)
                .isNotEmpty().doesNotContain(RedisKeys.requests(activity));
    }

    @Test
    void givenValuesNoIdMayHold_whenPassedToTheReserveScript_thenTheyAreStoredAndReturnedByteForByte() {
        ActivityId activity = uniqueActivity("argv-");
        adapter.warmUp(sale(activity, ActivityItem.of("a", 5)));
        String canary = "fs:{" + activity.value() + "}:canary";
        redis.set(canary, "still here", SetArgs.Builder.ex(300));
        String reservationId = "]]..redis.call('DEL', KEYS[2])..[[";
        String buyer = "x--]]--y";
        String requestId = "'); redis.call('FLUSHALL') --\n\"\0 ünï 😀";
        String[] args = ReserveScriptCall.arguments(request(activity, "placeholder", "placeholder",
                new ReservationLine(new SkuId("a"), 1)));
        args[ReserveScriptCall.HEADER_ARGUMENTS] = reservationId;
        args[ReserveScriptCall.HEADER_ARGUMENTS + 1] = buyer;
        args[ReserveScriptCall.HEADER_ARGUMENTS + 2] = requestId;
        LuaScript reserve = LuaScript.load(redis, "reserve");

        List<Object> accepted = ReserveScriptCall.reply(
                reserve.run(redis, ScriptOutputType.MULTI, ReserveScriptCall.keys(activity), args), 0);
        List<Object> replayed = ReserveScriptCall.reply(
                reserve.run(redis, ScriptOutputType.MULTI, ReserveScriptCall.keys(activity), args), 0);

        assertThat(accepted).startsWith("RESERVED").hasSize(2);
        assertThat(replayed).startsWith("REPLAYED", reservationId, buyer, requestId, "a:1", "RESERVED");
        List<StreamMessage<String, String>> outbox = redis.xrange(RedisKeys.outbox(activity), Range.create("-", "+"));
        assertThat(outbox).singleElement().satisfies(entry -> assertThat(entry.getBody())
                .containsOnlyKeys(reservationId)
                .hasEntrySatisfying(reservationId, record -> assertThat(record)
                        .startsWith("R|" + buyer + "|" + requestId + "|a:1|")));
        assertThat(redis.get(canary)).isEqualTo("still here");
        redis.del(canary);
        assertThat(adapter.stock(activity)).contains(List.of(new SkuStock(new SkuId("a"), new StockLedger(5, 1, 0))));
    }

    /** The only test that may flush the script cache: every adapter reloads on NOSCRIPT, so others heal too. */
    @Test
    void givenTheServerLostItsScripts_thenEveryCallLoadsItsScriptAgainAndAnswers() {
        ActivityId activity = uniqueActivity("noscript-");
        var fresh = new RedisStockReservationAdapter(SharedRedis.connection());
        LuaScript probe = LuaScript.load(redis, "noscript_probe");
        Activity sale = sale(activity, new ActivityItem(new SkuId("a"), 4, null, 2));

        redis.scriptFlush(FlushMode.SYNC);

        assertThat(redis.scriptExists(probe.sha())).containsExactly(false);
        assertThat((String) probe.run(redis, ScriptOutputType.VALUE, new String[0], "echo")).isEqualTo("echo");
        assertThat(redis.scriptExists(probe.sha())).containsExactly(true);
        assertThat(fresh.warmUp(sale)).containsExactly(new SkuStock(new SkuId("a"), StockLedger.of(4)));
        ReservationRequest first = request(activity, "alice", "r1", new ReservationLine(new SkuId("a"), 2));
        ReservationRequest second = request(activity, "bob", "r1", new ReservationLine(new SkuId("a"), 1));
        assertThat(fresh.reserve(first)).isInstanceOf(ReservationOutcome.Reserved.class);
        assertThat(fresh.reserve(second)).isInstanceOf(ReservationOutcome.Reserved.class);
        assertThat(fresh.confirm(first.id())).isTrue();
        assertThat(fresh.release(second.id())).isTrue();
        assertThat(fresh.stock(activity)).contains(List.of(new SkuStock(new SkuId("a"), new StockLedger(4, 0, 2))));
        assertThat(fresh.holdings(activity, new BuyerId("alice"))).isEqualTo(Map.of(new SkuId("a"), 2L));
    }

    private List<String> keysOf(ActivityId activity) {
        var keys = new ArrayList<String>();
        var cursor = redis.scan(ScanArgs.Builder.matches("fs:{" + activity.value() + "}:*").limit(1000));
        keys.addAll(cursor.getKeys());
        while (!cursor.isFinished()) {
            cursor = redis.scan(cursor, ScanArgs.Builder.matches("fs:{" + activity.value() + "}:*").limit(1000));
            keys.addAll(cursor.getKeys());
        }
        return keys;
    }
}
