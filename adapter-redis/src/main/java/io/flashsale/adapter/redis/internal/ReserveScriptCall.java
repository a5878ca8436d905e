package io.flashsale.adapter.redis.internal;

import io.flashsale.adapter.redis.RedisKeys;
import io.flashsale.adapter.redis.ReservationRecord;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.AdmissionLimit;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.slice.SaleSlice;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static io.flashsale.adapter.redis.internal.ScriptReplies.number;
import static io.flashsale.adapter.redis.internal.ScriptReplies.text;

/**
 * The KEYS and ARGV of {@code reserve.lua} for a batch of attempts of one slice of a sale, and the outcome each
 * attempt's reply stands for. Each attempt is encoded once, by its own caller ({@link Attempt#of}): the header it
 * shares with the other attempts of a call, and its own block. A batch is attempts of one header: it sends the header
 * once, then the attempts' blocks one after the other, and lists their bucket keys in the same order (ADR 105). An
 * attempt goes to the slice its id names ({@link ReservationId#slice()}, ADR 109): a sale of one slice is slice 0, the
 * activity's own keys.
 */
public final class ReserveScriptCall {

    /**
     * A call's header: the prefix of the attempts' ids (the sale, or {@code <a>.<k>of<n>} for a slice of a sale of
     * slices), the clock (empty for Redis TIME, {@value #ATTEMPTS_CLOCK} for each attempt's own instants), the buyers'
     * bucket figures (three empty for none), the filter shape the attempts' keys were hashed for (empty: the script
     * hashes), and the slice count the ids name, which the script checks against its meta's (ADR 109).
     */
    public static final int HEADER_ARGUMENTS = 7;

    /**
     * An attempt's ARGV: its lines go as the record keeps them, "sku:q,sku:q" (ADR 83); then its key's word and mask
     * in the filter and its request entry's bucket (ADR 100); with the attempts' clock, three more: its instant
     * (seconds, nanos) and the same packed. Its bucket key, when the header names a bucket, is the next of KEYS,
     * counted by the script (ADR 103).
     */
    public static final int ATTEMPT_ARGUMENTS = 7;

    /** The header's clock when each attempt is judged and stamped by its own instant. */
    public static final String ATTEMPTS_CLOCK = "attempt";
    private static final String RESERVED = "RESERVED";
    /** The script's answer to every attempt of a call whose ids name another slice count than its meta's. */
    private static final String SLICES = "SLICES";

    private ReserveScriptCall() {
    }

    /**
     * One attempt as the script reads it: the header of the calls it can go in, its ARGV block and its bucket key,
     * null when it has no bucket.
     */
    public record Attempt(ReservationRequest request, List<String> header, String[] arguments, String bucketKey) {

        /**
         * @param redisClock true: the script judges the sale window by Redis {@code TIME} and stamps an accepted
         *                   reservation with it, so every instance uses the same clock whatever its own says (ADR
         *                   0082); false: the request's instant does both
         */
        public static Attempt of(ReservationRequest request, boolean redisClock) {
            return of(request, redisClock, null);
        }

        /**
         * @param filter the shape of the sale's filter of accepted keys, for the adapter to hash the request key into
         *               it (ADR 83); null: the script hashes it
         */
        public static Attempt of(ReservationRequest request, boolean redisClock, FilterShapes.Shape filter) {
            String id = request.id().value();
            SaleSlice slice = request.id().slice();
            var header = new ArrayList<String>(HEADER_ARGUMENTS);
            // What the request index leaves out of the ids it keeps, the same for every id of the slice.
            header.add(id.substring(0, id.lastIndexOf('.')));
            header.add(redisClock ? "" : ATTEMPTS_CLOCK);
            header.addAll(List.of(request.buyerBucket() == null ? BucketArguments.none()
                    : BucketArguments.of(request.buyerBucket())));
            header.add(filter == null ? "" : filter.text());
            header.add(Integer.toString(slice.slices().count()));
            var args = new String[redisClock ? ATTEMPT_ARGUMENTS : ATTEMPT_ARGUMENTS + 3];
            args[0] = id;
            args[1] = request.buyerId().value();
            args[2] = request.requestId().value();
            args[3] = ReservationLines.encode(request.lines());
            if (filter == null) {
                args[4] = args[5] = args[6] = "";
            } else {
                String field = RedisKeys.requestField(request.buyerId(), request.requestId());
                // One SHA-1 places the key in the filter and its entry in the request index's buckets.
                byte[] digest = AcceptedRequestsFilter.digest(field);
                AcceptedRequestsFilter.Word word = AcceptedRequestsFilter.Word.of(digest, filter.bits(), filter.hashes());
                args[4] = word.offset();
                args[5] = word.maskText();
                // Its request entry's bucket, for the bucket count the shape names (the script checks it).
                args[6] = filter.buckets() == 0 ? "" : Integer.toString(RedisKeys.requestBucketOf(
                        AcceptedRequestsFilter.firstWord(digest), filter.buckets()));
            }
            if (!redisClock) {
                Instant at = request.at();
                args[7] = Long.toString(at.getEpochSecond());
                args[8] = Integer.toString(at.getNano());
                // Packed here as the record keeps it, so that the script does no date arithmetic per reservation.
                args[9] = ReservationRecord.pack(at);
            }
            String bucketKey = request.buyerBucket() == null ? null
                    : RedisKeys.buyerBucket(slice, request.buyerId());
            return new Attempt(request, List.copyOf(header), args, bucketKey);
        }

        /** Whether the two can go in one call: they share its header (the slice among it). */
        public boolean sharesCallWith(Attempt other) {
            return header.equals(other.header);
        }

        /** The slice whose keys decide the attempt: the one its id names. */
        public SaleSlice slice() {
            return request.id().slice();
        }
    }

    public static String[] keys(ActivityId activityId) {
        return new String[] {
                RedisKeys.meta(activityId), RedisKeys.stock(activityId), RedisKeys.holdings(activityId),
                RedisKeys.reservations(activityId), RedisKeys.requests(activityId), RedisKeys.outbox(activityId),
                RedisKeys.inFlight(activityId), RedisKeys.acceptedRequests(activityId)};
    }

    /** The slice's keys, as {@link #keys(ActivityId)} names slice 0's. */
    public static String[] keys(SaleSlice slice) {
        return new String[] {
                RedisKeys.meta(slice), RedisKeys.stock(slice), RedisKeys.holdings(slice),
                RedisKeys.reservations(slice), RedisKeys.requests(slice), RedisKeys.outbox(slice),
                RedisKeys.inFlight(slice), RedisKeys.acceptedRequests(slice)};
    }

    /** The KEYS of a batch: {@link #keys(SaleSlice)}, then the bucket key of each attempt that has one. */
    public static String[] keys(List<Attempt> batch) {
        var keys = new ArrayList<>(List.of(keys(batch.getFirst().slice())));
        for (Attempt attempt : batch) {
            if (attempt.bucketKey() != null) {
                keys.add(attempt.bucketKey());
            }
        }
        return keys.toArray(String[]::new);
    }

    /**
     * The ARGV of a batch of one slice's attempts, judged in this order: their header once, then each attempt's block.
     * Attempts of another slice or another header are refused.
     */
    public static String[] arguments(List<Attempt> batch) {
        Attempt first = batch.getFirst();
        for (Attempt attempt : batch) {
            if (!attempt.slice().equals(first.slice())) {
                throw new IllegalArgumentException("one call decides attempts of one slice, not " + first.slice()
                        + " and " + attempt.slice());
            }
            if (!attempt.sharesCallWith(first)) {
                throw new IllegalArgumentException("one call's attempts share its header, not " + first.header()
                        + " and " + attempt.header());
            }
        }
        String[] args = new String[HEADER_ARGUMENTS + batch.size() * first.arguments().length];
        for (int i = 0; i < HEADER_ARGUMENTS; i++) {
            args[i] = first.header().get(i);
        }
        int at = HEADER_ARGUMENTS;
        for (Attempt attempt : batch) {
            System.arraycopy(attempt.arguments(), 0, args, at, attempt.arguments().length);
            at += attempt.arguments().length;
        }
        return args;
    }

    /** The KEYS of a batch of one attempt. */
    public static String[] keys(ReservationRequest request) {
        return keys(List.of(Attempt.of(request, false)));
    }

    /** A batch of one, judged by the request's instant as the reference does: for tests that move the clock. */
    public static String[] arguments(ReservationRequest request) {
        return arguments(request, false);
    }

    /** A batch of one; see {@link Attempt#of} for {@code redisClock}. */
    public static String[] arguments(ReservationRequest request, boolean redisClock) {
        return arguments(List.of(Attempt.of(request, redisClock)));
    }

    /**
     * The reply of the attempt at {@code index} of a batch's reply, as a list whose first element is its code: the
     * script answers an attempt it reserved with the reservation's packed instant alone (ADR 103).
     */
    @SuppressWarnings("unchecked")
    public static List<Object> reply(List<Object> batchReply, int index) {
        Object reply = batchReply.get(index);
        return reply instanceof List<?> coded ? (List<Object>) coded : List.of(RESERVED, reply);
    }

    /**
     * Whether the script judged nothing because the attempt's id names another slice count than the sale was loaded
     * with (ADR 109): the count the caller assumed is stale.
     */
    public static boolean namesAnotherSliceCount(List<Object> reply) {
        return SLICES.equals(text(reply, 0));
    }

    /**
     * @throws ScriptRefusedException when the script refused the attempt as the model does (a SKU named twice, a
     *                                quantity below 1)
     */
    public static ReservationOutcome outcome(List<Object> reply, ReservationRequest request) {
        String code = text(reply, 0);
        return switch (code) {
            case "RATE_LIMITED" -> request.buyerBucket().refusal(AdmissionLimit.BUYER,
                    Duration.ofNanos(number(reply, 1) * 1000));
            case RESERVED -> new ReservationOutcome.Reserved(answered(request, text(reply, 1)));
            case "REPLAYED" -> new ReservationOutcome.Replayed(replayed(reply));
            case "SETTLED" -> new ReservationOutcome.Settled(new ReservationId(text(reply, 1)));
            // An id of another slice count finds no slice of the sale loaded for it.
            case "NOT_READY", SLICES -> new ReservationOutcome.NotReady();
            case "NOT_STARTED" -> new ReservationOutcome.NotStarted(instant(reply, 1));
            case "ENDED" -> new ReservationOutcome.Ended(instant(reply, 1));
            case "PAUSED" -> new ReservationOutcome.Paused();
            case "UNKNOWN_SKU" -> new ReservationOutcome.UnknownSku(sku(reply));
            case "LIMIT_EXCEEDED" -> new ReservationOutcome.LimitExceeded(
                    sku(reply), Math.toIntExact(number(reply, 2)), number(reply, 3));
            case "SOLD_OUT" -> new ReservationOutcome.SoldOut(sku(reply));
            case "INSUFFICIENT_STOCK" -> new ReservationOutcome.InsufficientStock(sku(reply), number(reply, 2));
            case "REFUSED" -> throw new ScriptRefusedException("reserve", text(reply, 1));
            default -> throw new IllegalStateException("reserve.lua answered " + reply);
        };
    }

    /** The accepted reservation, stamped with the instant the script recorded (the request's, or Redis TIME). */
    private static Reservation answered(ReservationRequest request, String reservedAt) {
        Reservation asked = request.toReservation();
        return new Reservation(asked.id(), asked.activityId(), asked.buyerId(), asked.requestId(), asked.lines(),
                asked.status(), ReservationRecord.unpack(reservedAt));
    }

    /** {@code REPLAYED, id, buyerId, requestId, lines, status, reservedAt} (packed as the record keeps it). */
    private static Reservation replayed(List<Object> reply) {
        var id = new ReservationId(text(reply, 1));
        return new Reservation(id, id.activityId(), new BuyerId(text(reply, 2)), new RequestId(text(reply, 3)),
                ReservationLines.decode(text(reply, 4)), ReservationStatus.valueOf(text(reply, 5)),
                ReservationRecord.unpack(text(reply, 6)));
    }

    /** Epoch seconds and nano-of-second at {@code index} and the next entry. */
    private static Instant instant(List<Object> reply, int index) {
        return Instant.ofEpochSecond(number(reply, index), number(reply, index + 1));
    }

    private static SkuId sku(List<Object> reply) {
        return new SkuId(text(reply, 1));
    }
}
