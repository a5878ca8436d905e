package io.flashsale.adapter.redis.internal;

import io.flashsale.adapter.redis.RedisKeys;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.AdmissionLimit;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.reservation.ReservationStatus;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.flashsale.adapter.redis.internal.ScriptReplies.number;
import static io.flashsale.adapter.redis.internal.ScriptReplies.text;

/** The KEYS and ARGV of {@code reserve.lua} and the outcome its reply stands for. */
public final class ReserveScriptCall {

    /** ARGV before the first line's (skuId, quantity) pair. */
    public static final int FIXED_ARGUMENTS = 12;

    private ReserveScriptCall() {
    }

    public static String[] keys(ActivityId activityId) {
        return new String[] {
                RedisKeys.meta(activityId), RedisKeys.stock(activityId), RedisKeys.holdings(activityId),
                RedisKeys.reservations(activityId), RedisKeys.requests(activityId), RedisKeys.outbox(activityId),
                RedisKeys.inFlight(activityId), RedisKeys.acceptedRequests(activityId)};
    }

    /** {@link #keys(ActivityId)}, and the buyer's bucket when the attempt is behind one. */
    public static String[] keys(ReservationRequest request) {
        String[] keys = keys(request.activityId());
        if (request.buyerBucket() == null) {
            return keys;
        }
        String[] withBucket = Arrays.copyOf(keys, keys.length + 1);
        withBucket[keys.length] = RedisKeys.buyerBucket(request.activityId(), request.buyerId());
        return withBucket;
    }

    /** The window judged by the request's instant, as the reference does: for tests that move the clock. */
    public static String[] arguments(ReservationRequest request) {
        return arguments(request, false);
    }

    /**
     * @param redisClock true: the script judges the sale window by Redis {@code TIME}, so every instance uses the
     *                   same clock whatever its own says; the request's instant still stamps the reservation
     */
    public static String[] arguments(ReservationRequest request, boolean redisClock) {
        Instant at = request.at();
        var args = new ArrayList<String>(FIXED_ARGUMENTS + 2 * request.lines().size());
        args.add(request.id().value());
        args.add(request.activityId().value());
        args.add(request.buyerId().value());
        args.add(request.requestId().value());
        args.add(redisClock ? "" : Long.toString(at.getEpochSecond()));
        args.add(redisClock ? "" : Integer.toString(at.getNano()));
        args.add(at.toString());
        args.add(Long.toString(at.toEpochMilli()));
        args.add(ReservationLines.encode(request.lines()));
        args.addAll(List.of(request.buyerBucket() == null ? BucketArguments.none()
                : BucketArguments.of(request.buyerBucket())));
        for (ReservationLine line : request.lines()) {
            args.add(line.skuId().value());
            args.add(Integer.toString(line.quantity()));
        }
        return args.toArray(String[]::new);
    }

    public static ReservationOutcome outcome(List<Object> reply, ReservationRequest request) {
        String code = text(reply, 0);
        return switch (code) {
            case "RATE_LIMITED" -> request.buyerBucket().refusal(AdmissionLimit.BUYER,
                    Duration.ofNanos(number(reply, 1) * 1000));
            case "RESERVED" -> new ReservationOutcome.Reserved(request.toReservation());
            case "REPLAYED" -> new ReservationOutcome.Replayed(replayed(reply));
            case "NOT_READY" -> new ReservationOutcome.NotReady();
            case "NOT_STARTED" -> new ReservationOutcome.NotStarted(instant(reply, 1));
            case "ENDED" -> new ReservationOutcome.Ended(instant(reply, 1));
            case "UNKNOWN_SKU" -> new ReservationOutcome.UnknownSku(sku(reply));
            case "LIMIT_EXCEEDED" -> new ReservationOutcome.LimitExceeded(
                    sku(reply), Math.toIntExact(number(reply, 2)), number(reply, 3));
            case "SOLD_OUT" -> new ReservationOutcome.SoldOut(sku(reply));
            case "INSUFFICIENT_STOCK" -> new ReservationOutcome.InsufficientStock(sku(reply), number(reply, 2));
            default -> throw new IllegalStateException("reserve.lua answered " + reply);
        };
    }

    /** {@code REPLAYED, id, buyerId, requestId, lines, status, reservedAt}. */
    private static Reservation replayed(List<Object> reply) {
        var id = new ReservationId(text(reply, 1));
        return new Reservation(id, id.activityId(), new BuyerId(text(reply, 2)), new RequestId(text(reply, 3)),
                ReservationLines.decode(text(reply, 4)), ReservationStatus.valueOf(text(reply, 5)),
                Instant.parse(text(reply, 6)));
    }

    /** Epoch seconds and nano-of-second at {@code index} and the next entry. */
    private static Instant instant(List<Object> reply, int index) {
        return Instant.ofEpochSecond(number(reply, index), number(reply, index + 1));
    }

    private static SkuId sku(List<Object> reply) {
        return new SkuId(text(reply, 1));
    }
}
