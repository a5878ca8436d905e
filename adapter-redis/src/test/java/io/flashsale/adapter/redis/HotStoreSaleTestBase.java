package io.flashsale.adapter.redis;

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
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.junit.jupiter.api.AfterEach;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the reconciliation and rebuild tests share: a sale id of each test's own on the shared Redis (its keys deleted
 * after the test), the adapters they drive, and reserving in test words.
 */
abstract class HotStoreSaleTestBase {

    static final SkuId A = new SkuId("a");
    static final SkuId B = new SkuId("b");
    static final BuyerId ANN = new BuyerId("ann");
    static final BuyerId BOB = new BuyerId("bob");

    final RedisClusterCommands<String, String> redis = SharedRedis.commands();
    final RedisStockReservationAdapter stock = SharedRedis.adapter();
    final RedisHotStoreReconciliation hotStore = SharedRedis.reconciliation();
    final RedisHotStoreRebuild hotStoreRebuild = SharedRedis.rebuild();
    final RedisStockAdjustments hotStoreAdjustments = SharedRedis.adjustments();
    final RedisReservationOutbox outbox = new RedisReservationOutbox(SharedRedis.commands(), SharedRedis.registry());
    final ActivityId activityId;

    /** @param idPrefix starts the sale's id, so a leftover key tells which test wrote it */
    HotStoreSaleTestBase(String idPrefix) {
        activityId = new ActivityId(idPrefix + "-" + UUID.randomUUID().toString().substring(0, 12));
    }

    @AfterEach
    void forgetTheActivity() {
        SharedRedis.forget(activityId);
    }

    /** This test's sale, open from a minute ago for an hour, at most 5 units a buyer. */
    Activity saleOf(String name, ActivityItem... items) {
        return new Activity(activityId, name, Instant.now().minus(Duration.ofMinutes(1)),
                Instant.now().plus(Duration.ofHours(1)), new PurchaseLimit(5), Activity.DEFAULT_PAYMENT_TIMEOUT,
                List.of(items));
    }

    /** A reservation that must be accepted. */
    Reservation reserve(BuyerId buyer, ReservationLine... lines) {
        ReservationOutcome outcome = attempt(buyer, "k" + UUID.randomUUID().toString().substring(0, 10), lines);
        assertThat(outcome).isInstanceOf(ReservationOutcome.Reserved.class);
        return ((ReservationOutcome.Reserved) outcome).reservation();
    }

    ReservationOutcome attempt(BuyerId buyer, String requestId, ReservationLine... lines) {
        String token = UUID.randomUUID().toString().replace("-", "");
        return stock.reserve(new ReservationRequest(ReservationId.of(activityId, token), buyer,
                new RequestId(requestId), List.of(lines), Instant.now()));
    }

    static ReservationLine line(SkuId sku, int quantity) {
        return new ReservationLine(sku, quantity);
    }
}
