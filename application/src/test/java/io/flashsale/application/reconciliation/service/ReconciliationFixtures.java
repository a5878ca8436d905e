package io.flashsale.application.reconciliation.service;

import io.flashsale.application.reconciliation.port.out.HotStoreSnapshot;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.HotReservation;
import io.flashsale.domain.reconciliation.HotSkuSnapshot;
import io.flashsale.domain.reconciliation.LedgerFigures;
import io.flashsale.domain.reconciliation.RecordedAdjustment;
import io.flashsale.domain.reconciliation.RecordedOrder;
import io.flashsale.domain.reconciliation.RecordedSku;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** One open sale of one SKU and the two stores' views of it, for the reconciliation and adjustment tests. */
final class ReconciliationFixtures {

    static final ActivityId SALE = new ActivityId("flash-1");
    static final SkuId SKU = new SkuId("a");
    static final Instant NOW = Instant.parse("2030-06-01T12:00:00Z");
    static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    static final Instant FRESH = NOW.minusSeconds(2);
    static final Instant STALE = NOW.minusSeconds(3600);
    static final BuyerId ANN = new BuyerId("ann");
    static final BuyerId BOB = new BuyerId("bob");
    static final ReservationId R1 = ReservationId.of(SALE, "r1");
    static final ActivityItem ITEM = new ActivityItem(SKU, 10, null, 2);
    static final Activity OPEN_SALE = sale(SALE, NOW.minusSeconds(3600), NOW.plusSeconds(3600));

    private ReconciliationFixtures() {
    }

    static Activity sale(ActivityId id, Instant startsAt, Instant endsAt) {
        return new Activity(id, "Flash", startsAt, endsAt, new PurchaseLimit(2), Duration.ofMinutes(15),
                List.of(new ActivityItem(SKU, 10, null, 2)));
    }

    static Optional<HotStoreSnapshot> hot(LedgerFigures figures, Map<BuyerId, Long> holdings,
                                          List<HotReservation> reservations, String version) {
        return hot(SALE, figures, holdings, reservations, version);
    }

    static Optional<HotStoreSnapshot> hot(ActivityId sale, LedgerFigures figures, Map<BuyerId, Long> holdings,
                                          List<HotReservation> reservations, String version) {
        return hot(sale, figures, holdings, reservations, Set.of(), version);
    }

    static Optional<HotStoreSnapshot> hot(ActivityId sale, LedgerFigures figures, Map<BuyerId, Long> holdings,
                                          List<HotReservation> reservations, Set<Long> appliedAdjustments,
                                          String version) {
        return Optional.of(new HotStoreSnapshot(sale, Map.of(SKU,
                new HotSkuSnapshot(SKU, figures, holdings, reservations, appliedAdjustments, version))));
    }

    static HotReservation reserved(ReservationId id, BuyerId buyer, long units, Instant at) {
        return new HotReservation(id, buyer, ReservationStatus.RESERVED, units, at, null, false);
    }

    static HotReservation held(ReservationId id, BuyerId buyer, ReservationStatus status, long units) {
        return new HotReservation(id, buyer, status, units, STALE, null, false);
    }

    static Optional<RecordedSku> recorded(long stock, long sold, Map<BuyerId, Long> purchases) {
        return Optional.of(new RecordedSku(SKU, stock, sold, purchases, Map.of(), Set.of(), List.of()));
    }

    static Optional<RecordedSku> recorded(long stock, long sold, Map<BuyerId, Long> purchases, RecordedOrder order) {
        return Optional.of(new RecordedSku(SKU, stock, sold, purchases, Map.of(order.id(), order), Set.of(), List.of()));
    }

    static Optional<RecordedSku> recorded(long stock, long sold, Map<BuyerId, Long> purchases,
                                          List<RecordedAdjustment> adjustments) {
        return Optional.of(new RecordedSku(SKU, stock, sold, purchases, Map.of(), Set.of(), adjustments));
    }

    static RecordedOrder order(ReservationId id, ReservationStatus status, boolean wasOrdered, Instant settledAt) {
        return new RecordedOrder(id, status, wasOrdered, settledAt);
    }
}
