package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.adapter.redis.internal.WarmUpScriptCall;
import io.flashsale.application.reconciliation.port.out.RebuildStart;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.reservation.ReservationStatus;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * warm_up.lua looks for the request index's buckets a page a call (ADR 0106): no call of the largest sale's warm-up
 * looks up much more than a page of keys, yet every bucket is looked at before an empty filter of accepted request keys
 * is made; and no empty filter is made over entries a loss left, a load between the calls wrote, or a rebuild writes.
 */
@Timeout(120)
class RedisWarmUpIndexLookIT {

    /** Buckets warm_up.lua looks at in one call. */
    private static final int PAGE = 256;
    /** Keys a call looks up besides its page: meta's fields, the drop marker, the filter, the single hash. */
    private static final int BESIDES_THE_PAGE = 16;
    /** Buckets of a sale of {@link #TWO_PAGES_OF_UNITS}: two pages, 32 units a bucket. */
    private static final int TWO_PAGES = 2 * PAGE;
    private static final int TWO_PAGES_OF_UNITS = 32 * TWO_PAGES;

    private final RedisClusterCommands<String, String> redis = SharedRedis.commands();
    private final LuaScript warmUp = LuaScript.load(redis, "warm_up");

    @Test
    void givenTheLargestSale_whenWarmedUp_thenNoCallLooksUpMoreThanAPageOfKeysYetEveryBucketIsLookedAt() {
        assumeThat(SharedRedis.onCluster()).as("the keyspace figures of one server").isFalse();
        try (var fixture = new OutboxFixture()) {
            Activity sale = fixture.sale("largest", 262_144);
            List<Long> replies = new ArrayList<>();
            List<Long> lookups = new ArrayList<>();
            do {
                long before = keysLookedUp();
                replies.add(call(sale));
                lookups.add(keysLookedUp() - before);
            } while (replies.getLast() == 3L && replies.size() <= 8_192 / PAGE);

            assertThat(RedisRequestIndex.buckets(redis, sale.id())).isEqualTo(8_192);
            assertThat(replies).as("a call a page, the last loads").hasSize(8_192 / PAGE).endsWith(1L)
                    .containsOnly(3L, 1L);
            assertThat(lookups).allSatisfy(keys -> assertThat(keys).isLessThanOrEqualTo(PAGE + BESIDES_THE_PAGE));
            assertThat(lookups.stream().mapToLong(Long::longValue).sum()).as("every bucket").isGreaterThan(8_192);
            assertThat(fixture.stock.stock(sale.id())).isPresent();
            assertThat(new RedisAcceptedRequests(redis).read(sale.id())).as("an empty filter, usable").isPresent();
            assertThat(redis.hexists(RedisKeys.meta(sale.id()), "requestBucketsChecked")).isFalse();
        }
    }

    @Test
    void givenALossThatTookMetaWhileOnlyLaterPagesHoldEntries_whenWarmedUp_thenTheKeptFilterStaysAndRetriesReplay() {
        try (var fixture = new OutboxFixture()) {
            Activity sale = fixture.warmedUpSale("kept", TWO_PAGES_OF_UNITS);
            List<ReservationRequest> accepted = reservedInBuckets(fixture, sale, PAGE + 1, TWO_PAGES);
            loseMetaAndLedger(sale);

            fixture.stock.warmUp(sale);

            var filter = new RedisAcceptedRequests(redis).read(sale.id()).orElseThrow();
            accepted.forEach(request -> assertThat(filter.mayHold(request.buyerId(), request.requestId())).isTrue());
            assertEveryRetryReplayed(fixture, accepted);
        }
    }

    @Test
    void givenALossThatTookMetaAndTheFilterWhileOnlyLaterPagesHoldEntries_whenWarmedUp_thenNoEmptyFilterIsMade() {
        try (var fixture = new OutboxFixture()) {
            Activity sale = fixture.warmedUpSale("lost", TWO_PAGES_OF_UNITS);
            List<ReservationRequest> accepted = reservedInBuckets(fixture, sale, PAGE + 1, TWO_PAGES);
            loseMetaAndLedger(sale, RedisKeys.acceptedRequests(sale.id()));

            fixture.stock.warmUp(sale);

            assertThat(redis.exists(RedisKeys.acceptedRequests(sale.id()))).as("no filter: keyed attempts ask Redis")
                    .isZero();
            assertEveryRetryReplayed(fixture, accepted);
        }
    }

    @Test
    void givenALoadAndALossOfMetaBetweenTwoCalls_thenWhatTheFirstCallSawIsForgottenAndNoEmptyFilterIsMade() {
        try (var fixture = new OutboxFixture()) {
            Activity sale = fixture.sale("between", TWO_PAGES_OF_UNITS);
            assertThat(call(sale)).isEqualTo(3L);
            assertThat(redis.hget(RedisKeys.meta(sale.id()), "requestBucketsChecked")).isEqualTo(String.valueOf(PAGE));
            // Another instance's warm-up loads the sale, buyers reserve into the page already looked at, a loss.
            fixture.stock.warmUp(sale);
            List<ReservationRequest> accepted = reservedInBuckets(fixture, sale, 1, PAGE);
            loseMetaAndLedger(sale, RedisKeys.acceptedRequests(sale.id()));

            assertThat(callsUntilLoaded(sale)).isEqualTo(1L);
            assertThat(redis.exists(RedisKeys.acceptedRequests(sale.id()))).isZero();
            assertEveryRetryReplayed(fixture, accepted);
        }
    }

    @Test
    void givenARebuildThatWritesThePageAlreadyLookedAt_whenTheWarmUpGoesOn_thenNoEmptyFilterIsMade() {
        try (var fixture = new OutboxFixture()) {
            Activity sale = fixture.sale("rebuilt", TWO_PAGES_OF_UNITS);
            assertThat(call(sale)).isEqualTo(3L);
            RedisHotStoreRebuild rebuild = SharedRedis.rebuild();
            var started = (RebuildStart.Started) rebuild.beginRebuild(sale.id(), Instant.now());
            Order order = orderInBuckets(sale, 1, PAGE);
            assertThat(rebuild.rebuildPage(sale.id(), started.rebuildId(), Optional.empty(), order.id(),
                    List.of(order))).isTrue();

            assertThat(callsUntilLoaded(sale)).isEqualTo(1L);
            assertThat(redis.exists(RedisKeys.acceptedRequests(sale.id()))).as("no empty filter over the entry")
                    .isZero();
            assertThat(RedisRequestIndex.size(redis, sale.id())).isEqualTo(1);
        }
    }

    /** A loss that took the sale's meta and ledger, and the other keys named. */
    private void loseMetaAndLedger(Activity sale, String... others) {
        redis.del(RedisKeys.meta(sale.id()), RedisKeys.stock(sale.id()));
        if (others.length > 0) {
            redis.del(others);
        }
    }

    private static void assertEveryRetryReplayed(OutboxFixture fixture, List<ReservationRequest> accepted) {
        accepted.forEach(request -> assertThat(fixture.stock.reserve(request))
                .isInstanceOf(ReservationOutcome.Replayed.class));
    }

    private long call(Activity sale) {
        return warmUp.<Long>run(redis, ScriptOutputType.INTEGER, WarmUpScriptCall.keys(sale),
                WarmUpScriptCall.arguments(sale));
    }

    /** warm_up.lua called again while it has buckets left to look at, as the adapter calls it; its last reply. */
    private long callsUntilLoaded(Activity sale) {
        long reply;
        do {
            reply = call(sale);
        } while (reply == 3L);
        return reply;
    }

    /** Keys the server looked up so far, found or not. */
    private long keysLookedUp() {
        long keys = 0;
        for (String line : redis.info("stats").split("\\r?\\n")) {
            if (line.startsWith("keyspace_hits:") || line.startsWith("keyspace_misses:")) {
                keys += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return keys;
    }

    /** Three keyed reservations whose request entries are in buckets first .. last of the sale's two pages. */
    private static List<ReservationRequest> reservedInBuckets(OutboxFixture fixture, Activity sale, int first,
                                                              int last) {
        List<ReservationRequest> made = new ArrayList<>();
        for (int i = 0; made.size() < 3; i++) {
            var request = new ReservationRequest(ReservationId.of(sale.id(), "t" + i), new BuyerId("buyer-" + i),
                    new RequestId("k" + i), List.of(new ReservationLine(OutboxFixture.SKU, 1)), Instant.now());
            if (inBuckets(request.buyerId(), request.requestId(), first, last)) {
                assertThat(fixture.stock.reserve(request)).isInstanceOf(ReservationOutcome.Reserved.class);
                made.add(request);
            }
        }
        return made;
    }

    /** An order MySQL holds whose request entry is in buckets first .. last of the sale's two pages. */
    private static Order orderInBuckets(Activity sale, int first, int last) {
        for (int i = 0; ; i++) {
            var buyer = new BuyerId("buyer-" + i);
            var requestId = new RequestId("k" + i);
            if (inBuckets(buyer, requestId, first, last)) {
                Instant at = Instant.now().truncatedTo(ChronoUnit.MILLIS);
                return new Order(ReservationId.of(sale.id(), "o" + i), buyer, requestId,
                        List.of(new ReservationLine(OutboxFixture.SKU, 1)), ReservationStatus.ORDERED, null, at, at,
                        at, null);
            }
        }
    }

    private static boolean inBuckets(BuyerId buyer, RequestId requestId, int first, int last) {
        int bucket = RedisKeys.requestBucketOf(RedisKeys.requestField(buyer, requestId), TWO_PAGES);
        return bucket >= first && bucket <= last;
    }
}
