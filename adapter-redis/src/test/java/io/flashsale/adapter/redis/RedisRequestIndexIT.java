package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.AcceptedRequestsFilter;
import io.flashsale.adapter.redis.internal.FilterShapes;
import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.adapter.redis.internal.ReserveScriptCall;
import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.reservation.ReservationStatus;
import io.lettuce.core.BitFieldArgs;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The request index spread over small hashes (ADR 0100): a settled sale's buckets stay listpacks, a keyed retry of a
 * settled reservation is still recognised, and a bucket grown past the listpack limits is only bigger, never wrong.
 */
class RedisRequestIndexIT {

    private final RedisClusterCommands<String, String> redis = SharedRedis.commands();

    @Test
    @Timeout(120)
    void givenASaleSoldOutAndSettled_thenEveryBucketIsAListpackAndAKeyedRetryIsAnsweredSettled() {
        int units = 1_000;
        try (var fixture = new OutboxFixture()) {
            Activity sale = fixture.warmedUpSale("lean", units);
            int buckets = RedisRequestIndex.buckets(redis, sale.id());
            assertThat(buckets).as("fixed at warm-up from the units").isEqualTo(32);
            List<ReservationRequest> requests = new ArrayList<>();
            for (int i = 0; i < units; i++) {
                var request = request(sale, "buyer-" + i, "k" + i);
                assertThat(fixture.stock.reserve(request)).isInstanceOf(ReservationOutcome.Reserved.class);
                requests.add(request);
            }
            requests.forEach(request -> assertThat(fixture.stock.confirm(request.id())).isTrue());

            assertThat(redis.exists(RedisKeys.requests(sale.id()))).as("no single hash").isZero();
            assertThat(RedisRequestIndex.size(redis, sale.id())).isEqualTo(units);
            for (int k = 1; k <= buckets; k++) {
                String bucket = RedisKeys.requestBucket(sale.id(), k);
                assertThat(redis.objectEncoding(bucket)).as(bucket).isEqualTo("listpack");
            }
            for (ReservationRequest request : requests.subList(0, 50)) {
                assertThat(fixture.stock.reserve(request)).isEqualTo(new ReservationOutcome.Settled(request.id()));
                String field = RedisKeys.requestField(request.buyerId(), request.requestId());
                assertThat(redis.hexists(RedisKeys.requestKey(sale.id(), buckets, field), field))
                        .as("Java names the bucket the scripts wrote").isTrue();
            }
            assertThat(fixture.stock.reserve(request(sale, "late", "k"))).isInstanceOf(ReservationOutcome.SoldOut.class);
        }
    }

    @Test
    @Timeout(120)
    void givenABucketPastTheListpackLimits_thenReplaysSettledAnswersAndRestoresStayExact() {
        try (var fixture = new OutboxFixture()) {
            Activity sale = fixture.warmedUpSale("grown", 200);
            assertThat(RedisRequestIndex.buckets(redis, sale.id())).isEqualTo(7);
            // Fields longer than hash-max-listpack-value (64 bytes): each bucket they reach becomes a dict.
            List<ReservationRequest> requests = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                var request = request(sale, "buyer-" + i, "k".repeat(60) + i);
                assertThat(fixture.stock.reserve(request)).isInstanceOf(ReservationOutcome.Reserved.class);
                requests.add(request);
            }
            assertThat(RedisRequestIndex.keys(redis, sale.id()).subList(1, 8))
                    .allSatisfy(bucket -> assertThat(redis.objectEncoding(bucket)).isEqualTo("hashtable"));
            for (ReservationRequest request : requests.subList(0, 100)) {
                assertThat(fixture.stock.confirm(request.id())).isTrue();
            }

            for (ReservationRequest request : requests.subList(0, 100)) {
                assertThat(fixture.stock.reserve(request)).isEqualTo(new ReservationOutcome.Settled(request.id()));
            }
            for (ReservationRequest request : requests.subList(100, 200)) {
                assertThat(fixture.stock.reserve(request)).isInstanceOf(ReservationOutcome.Replayed.class);
            }
            ReservationRequest ordered = requests.getFirst();
            assertThat(fixture.stock.restore(PendingRestore.of(ordered.toReservation(), ReservationStatus.EXPIRED)))
                    .as("the restore finds the order by its request entry").contains(ReservationStatus.ORDERED);
            assertThat(fixture.stock.holdings(sale.id(), ordered.buyerId())).isEmpty();
            assertThat(RedisRequestIndex.size(redis, sale.id())).isEqualTo(200);
        }
    }

    @Test
    @Timeout(60)
    void givenTheAdaptersBucketForTheSalesCountOrAStaleCount_thenTheEntryLandsWhereEveryReaderLooks() {
        try (var fixture = new OutboxFixture()) {
            Activity sale = fixture.warmedUpSale("shape", 200);
            int buckets = RedisRequestIndex.buckets(redis, sale.id());
            List<Long> header = redis.bitfield(RedisKeys.acceptedRequests(sale.id()), BitFieldArgs.Builder
                    .get(BitFieldArgs.unsigned(32), 0).get(BitFieldArgs.unsigned(8), 32));
            LuaScript reserve = LuaScript.load(redis, "reserve");
            List<ReservationRequest> made = new ArrayList<>();
            for (int count : List.of(buckets, buckets + 2)) {
                for (int i = 0; i < 20; i++) {
                    ReservationRequest request = request(sale, "b" + count + "-" + i, "k" + i);
                    var attempt = ReserveScriptCall.Attempt.of(request, false, new FilterShapes.Shape(header.get(0),
                            Math.toIntExact(header.get(1)), AcceptedRequestsFilter.WORD_LAYOUT, count));
                    List<Object> reply = reserve.run(redis, ScriptOutputType.MULTI,
                            ReserveScriptCall.keys(List.of(attempt)), ReserveScriptCall.arguments(List.of(attempt)));
                    assertThat(ReserveScriptCall.outcome(ReserveScriptCall.reply(reply, 0), request))
                            .isInstanceOf(ReservationOutcome.Reserved.class);
                    made.add(request);
                }
            }

            for (ReservationRequest request : made) {
                String field = RedisKeys.requestField(request.buyerId(), request.requestId());
                assertThat(redis.hexists(RedisKeys.requestKey(sale.id(), buckets, field), field))
                        .as("the adapter's bucket when its count is the sale's, the script's own when stale").isTrue();
                assertThat(fixture.stock.reserve(request)).isInstanceOf(ReservationOutcome.Replayed.class);
            }
            assertThat(RedisRequestIndex.size(redis, sale.id())).isEqualTo(made.size());
        }
    }

    private static ReservationRequest request(Activity sale, String buyer, String requestId) {
        // The token: letters and digits only, whatever the request id.
        String token = "t" + Integer.toHexString(buyer.hashCode()) + Integer.toHexString(requestId.hashCode());
        return new ReservationRequest(ReservationId.of(sale.id(), token), new BuyerId(buyer),
                new RequestId(requestId), List.of(new ReservationLine(OutboxFixture.SKU, 1)), Instant.now());
    }
}
