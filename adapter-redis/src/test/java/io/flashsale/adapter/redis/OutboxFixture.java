package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.adapter.redis.internal.ReserveScriptCall;
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
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stock adapter and an outbox sharing a registry key of their own, and sales made for one test: no other test
 * (in this JVM or another run on the same Redis) sees these activities. {@link #close()} deletes every key.
 */
final class OutboxFixture implements AutoCloseable {

    static final SkuId SKU = new SkuId("a");

    final RedisClusterCommands<String, String> redis = SharedRedis.commands();
    final String registry = SharedRedis.newRegistry();
    final RedisStockReservationAdapter stock = SharedRedis.adapter(SharedRedis.connectionCommands(), registry);
    final RedisReservationOutbox outbox = new RedisReservationOutbox(SharedRedis.commands(), registry);
    private final List<ActivityId> activities = new ArrayList<>();

    /** A sale of {@code units} units of {@link #SKU}, open now, one unit per buyer; not warmed up. */
    Activity sale(String prefix, long units) {
        var id = new ActivityId(prefix + "-" + UUID.randomUUID().toString().substring(0, 8));
        activities.add(id);
        Instant now = Instant.now();
        return new Activity(id, "outbox", now.minus(Duration.ofMinutes(1)), now.plus(Duration.ofHours(1)),
                PurchaseLimit.ONE, Activity.DEFAULT_PAYMENT_TIMEOUT, List.of(new ActivityItem(SKU, units, null, 2)));
    }

    Activity warmedUpSale(String prefix, long units) {
        Activity sale = sale(prefix, units);
        stock.warmUp(sale);
        return sale;
    }

    /** One unit for a buyer of that name at a nanosecond-precise instant; null when refused. */
    Reservation reserve(ActivityId activityId, String buyer) {
        var request = new ReservationRequest(ReservationId.of(activityId, UUID.randomUUID().toString().replace("-", "")),
                new BuyerId(buyer), new RequestId("k-" + buyer), List.of(new ReservationLine(SKU, 1)), Instant.now());
        return stock.reserve(request) instanceof ReservationOutcome.Reserved(Reservation reservation) ? reservation : null;
    }

    /**
     * One unit for each buyer of these names, all in one call of the reserve script, as the adapter sends the attempts
     * that queued together (ADR 68); every one must be reserved.
     */
    List<Reservation> reserveInOneCall(ActivityId activityId, String... buyers) {
        var requests = new ArrayList<ReservationRequest>();
        for (String buyer : buyers) {
            requests.add(new ReservationRequest(ReservationId.of(activityId, UUID.randomUUID().toString().replace("-", "")),
                    new BuyerId(buyer), new RequestId("k-" + buyer), List.of(new ReservationLine(SKU, 1)), Instant.now()));
        }
        List<ReserveScriptCall.Attempt> batch = requests.stream()
                .map(request -> ReserveScriptCall.Attempt.of(request, true)).toList();
        List<Object> replies = LuaScript.load(redis, "reserve").run(redis, ScriptOutputType.MULTI,
                ReserveScriptCall.keys(batch), ReserveScriptCall.arguments(batch));
        var accepted = new ArrayList<Reservation>();
        for (int i = 0; i < requests.size(); i++) {
            ReservationOutcome outcome = ReserveScriptCall.outcome(ReserveScriptCall.reply(replies, i), requests.get(i));
            assertThat(outcome).as("attempt of " + buyers[i]).isInstanceOf(ReservationOutcome.Reserved.class);
            accepted.add(((ReservationOutcome.Reserved) outcome).reservation());
        }
        return accepted;
    }

    List<Reservation> reserveEach(ActivityId activityId, int buyers) {
        var accepted = new ArrayList<Reservation>();
        for (int b = 0; b < buyers; b++) {
            Reservation reservation = reserve(activityId, "buyer-" + b);
            assertThat(reservation).as("reservation of buyer-" + b).isNotNull();
            accepted.add(reservation);
        }
        return accepted;
    }

    long pending(ActivityId activityId) {
        return redis.exists(RedisKeys.outbox(activityId)) == 0 ? 0
                : redis.xpending(RedisKeys.outbox(activityId), RedisKeys.OUTBOX_GROUP).getCount();
    }

    /** The reservations the outbox's entries hold (an entry holds those of one reserve call, ADR 107). */
    long reservationsIn(ActivityId activityId) {
        return OutboxReservations.ids(redis, activityId).size();
    }

    long length(ActivityId activityId) {
        return redis.xlen(RedisKeys.outbox(activityId));
    }

    @Override
    public void close() {
        activities.forEach(SharedRedis::forget);
        SharedRedis.forgetRegistry(registry);
    }
}
