package io.flashsale.application.reservation.service;

import io.flashsale.application.blocklist.port.out.BlocklistPort;
import io.flashsale.application.order.port.out.OrderLookupPort;
import io.flashsale.application.reservation.model.AttemptOrigin;
import io.flashsale.application.reservation.model.ReserveStockCommand;
import io.flashsale.application.reservation.port.out.DeviceSightingsPort;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.RateLimitBucketsPort;
import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.application.sale.port.out.ActivityLookupPort;
import io.flashsale.application.shared.port.out.IdGeneratorPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BucketLimit;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome.Blocked.Refusal;
import io.flashsale.domain.reservation.ReservationOutcome.Blocked;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.risk.BlockEntry;
import io.flashsale.domain.risk.BlockKind;
import io.flashsale.domain.risk.DeviceId;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

/** The risk control: the blocklist held in memory, the device limit, and its place before everything else. */
class RiskControlTest {

    private static final ActivityId SALE = new ActivityId("sale-1");
    private static final Instant AT = Instant.parse("2026-12-05T00:00:00Z");

    private final BlocklistPort store = mock(BlocklistPort.class);

    /** Sightings counted in a plain map, with no window: each test is well inside one. */
    private static final class CountedSightings implements DeviceSightingsPort {
        final Map<DeviceId, Set<BuyerId>> seen = new HashMap<>();

        @Override
        public int buyersOf(DeviceId device, BuyerId buyer, int countUpTo) {
            Set<BuyerId> buyers = seen.computeIfAbsent(device, any -> new HashSet<>());
            if (buyers.size() < countUpTo) {
                buyers.add(buyer);
            }
            return buyers.contains(buyer) ? buyers.size() : Math.max(buyers.size(), countUpTo);
        }
    }

    private static BlockEntry entry(BlockKind kind, String value) {
        return new BlockEntry(kind, value, "test", "op", AT);
    }

    private static ReserveStockCommand attempt(String buyer, String address, String device) {
        return new ReserveStockCommand(SALE, new BuyerId(buyer), null,
                List.of(new ReservationLine(new SkuId("sku-1"), 1)), address,
                new AttemptOrigin(address, device == null ? null : new DeviceId(device)));
    }

    private RiskControl listing(BlockEntry... entries) {
        when(store.entries()).thenReturn(List.of(entries));
        RiskControl risk = new RiskControl(store, null, 0);
        assertThat(risk.refresh()).isTrue();
        return risk;
    }

    private static Optional<ReservationOutcome> blocked(Refusal refusal) {
        return Optional.of(new Blocked(refusal));
    }

    @Test
    void aListedBuyerIsBlockedWhateverItsAddressAndDevice() {
        RiskControl risk = listing(entry(BlockKind.BUYER, "mallory"));

        assertThat(risk.refusal(attempt("mallory", null, null))).isEqualTo(blocked(Refusal.BUYER));
        assertThat(risk.refusal(attempt("mallory", "192.0.2.1", "phone-1"))).isEqualTo(blocked(Refusal.BUYER));
        assertThat(risk.refusal(attempt("alice", "192.0.2.1", "phone-1"))).isEmpty();
    }

    @Test
    void aListedAddressOrBlockBlocksEveryAddressInItAndNoOther() {
        RiskControl risk = listing(entry(BlockKind.ADDRESS, "203.0.113.7"), entry(BlockKind.ADDRESS, "198.51.100.0/22"),
                entry(BlockKind.ADDRESS, "2001:db8:abcd::/48"));

        assertThat(risk.refusal(attempt("alice", "203.0.113.7", null))).isEqualTo(blocked(Refusal.ADDRESS));
        assertThat(risk.refusal(attempt("alice", "203.0.113.8", null))).isEmpty();
        assertThat(risk.refusal(attempt("alice", "198.51.100.0", null))).isEqualTo(blocked(Refusal.ADDRESS));
        assertThat(risk.refusal(attempt("alice", "198.51.103.255", null))).isEqualTo(blocked(Refusal.ADDRESS));
        assertThat(risk.refusal(attempt("alice", "198.51.104.0", null))).isEmpty();
        assertThat(risk.refusal(attempt("alice", "2001:db8:abcd:12::1", null))).isEqualTo(blocked(Refusal.ADDRESS));
        assertThat(risk.refusal(attempt("alice", "2001:db8:abce::1", null))).isEmpty();
        assertThat(risk.refusal(attempt("alice", null, null))).isEmpty();
        assertThat(risk.refusal(attempt("alice", "unparsed", null))).isEmpty();
    }

    @Test
    void aListedDeviceIsBlockedForEveryBuyer() {
        RiskControl risk = listing(entry(BlockKind.DEVICE, "farm-7"));

        assertThat(risk.refusal(attempt("alice", null, "farm-7"))).isEqualTo(blocked(Refusal.DEVICE));
        assertThat(risk.refusal(attempt("bob", "192.0.2.1", "farm-7"))).isEqualTo(blocked(Refusal.DEVICE));
        assertThat(risk.refusal(attempt("bob", "192.0.2.1", "farm-8"))).isEmpty();
    }

    @Test
    void aRefreshTakesEntriesOffAndAFailedOneKeepsTheListHeld() {
        RiskControl risk = listing(entry(BlockKind.BUYER, "mallory"));

        when(store.entries()).thenThrow(new IllegalStateException("database down"));
        assertThat(risk.refresh()).isFalse();
        assertThat(risk.refusal(attempt("mallory", null, null))).isEqualTo(blocked(Refusal.BUYER));

        org.mockito.Mockito.reset(store);
        when(store.entries()).thenReturn(List.of());
        assertThat(risk.refresh()).isTrue();
        assertThat(risk.refusal(attempt("mallory", null, null))).isEmpty();
        assertThat(risk.held()).isZero();
    }

    @Test
    void aDeviceWithMoreBuyersThanAllowedIsBlockedForAllOfThemUntilItsWindowCloses() {
        when(store.entries()).thenReturn(List.of());
        CountedSightings sightings = new CountedSightings();
        RiskControl risk = new RiskControl(store, sightings, 2);
        risk.refresh();

        assertThat(risk.refusal(attempt("alice", null, "shared"))).isEmpty();
        assertThat(risk.refusal(attempt("bob", null, "shared"))).isEmpty();
        assertThat(risk.refusal(attempt("alice", null, "shared"))).isEmpty();
        assertThat(risk.refusal(attempt("carol", null, "shared"))).isEqualTo(blocked(Refusal.SHARED_DEVICE));
        assertThat(risk.refusal(attempt("alice", null, "shared"))).isEqualTo(blocked(Refusal.SHARED_DEVICE));
        assertThat(risk.refusal(attempt("dave", null, "shared"))).isEqualTo(blocked(Refusal.SHARED_DEVICE));
        assertThat(sightings.seen.get(new DeviceId("shared"))).hasSize(3);
        // Another device, and attempts with none, are not counted against it.
        assertThat(risk.refusal(attempt("carol", null, "own"))).isEmpty();
        assertThat(risk.refusal(attempt("carol", null, null))).isEmpty();
    }

    @Test
    void withTheDeviceLimitOffNoSightingIsKept() {
        RiskControl risk = listing();
        for (int i = 0; i < 50; i++) {
            assertThat(risk.refusal(attempt("buyer-" + i, null, "shared"))).isEmpty();
        }
    }

    @Test
    void aBlockedAttemptIsAnsweredBeforeKnownRefusalsRateLimitsOrTheStore() {
        StockReservationPort stock = mock(StockReservationPort.class);
        RateLimitBucketsPort shared = mock(RateLimitBucketsPort.class);
        RateLimitBucketsPort local = mock(RateLimitBucketsPort.class);
        IdGeneratorPort ids = mock(IdGeneratorPort.class);
        BucketLimit limit = new BucketLimit(5, 5, Duration.ofSeconds(1));
        ReservationAdmission admission = new ReservationAdmission(
                new AdmissionPolicy(limit, Map.of(), limit, limit, Map.of()), shared, local);
        ReservationService service = new ReservationService(stock, mock(HeldReservationsPort.class),
                                                            mock(ActivityLookupPort.class),
                mock(OrderLookupPort.class), ids, Clock.fixed(AT, ZoneOffset.UTC), KnownRefusals.none(), admission,
                io.flashsale.application.reservation.port.out.ReservationAliasPort.none(),
                listing(entry(BlockKind.ADDRESS, "192.0.2.0/24")));

        List<ReservationOutcome> outcomes = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            outcomes.add(service.reserve(attempt("buyer-" + i, "192.0.2." + i, null)));
        }

        assertThat(outcomes).containsOnly(new Blocked(Refusal.ADDRESS));
        verifyNoInteractions(stock, shared, local, ids);
    }
}
