package io.flashsale.application.sale.service;

import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.application.sale.model.HotStoreMayEvictException;
import io.flashsale.application.sale.port.out.EvictionPolicyPort;
import io.flashsale.application.sale.port.out.NodeEvictionPolicy;
import io.flashsale.application.sale.port.out.SaleChangesPort;
import io.flashsale.application.shared.port.out.StoreUnavailableException;
import io.flashsale.application.testing.ActivityStore;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.reservation.PurchaseLimit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.lenient;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
class EvictionPolicyGuardTest {

    private static final Instant NOW = Instant.parse("2030-06-01T09:59:30Z");
    private static final Duration RECHECK = Duration.ofSeconds(10);
    private static final NodeEvictionPolicy SAFE = new NodeEvictionPolicy("r1:6379", "noeviction");
    private static final NodeEvictionPolicy LRU = new NodeEvictionPolicy("r2:6379", "allkeys-lru");

    private final AtomicReference<List<NodeEvictionPolicy>> policies = new AtomicReference<>(List.of(SAFE));
    private final AtomicInteger reads = new AtomicInteger();
    private final AtomicReference<Instant> now = new AtomicReference<>(NOW);
    private final Clock clock = movingClock();
    private final EvictionPolicyPort port = () -> {
        reads.incrementAndGet();
        List<NodeEvictionPolicy> now = policies.get();
        if (now == null) {
            throw new StoreUnavailableException("Redis does not answer", null);
        }
        return now;
    };
    private final EvictionPolicyGuard guard = new EvictionPolicyGuard(port, clock, RECHECK);

    private Clock movingClock() {
        Clock moving = mock(Clock.class);
        lenient().when(moving.instant()).thenAnswer(invocation -> now.get());
        return moving;
    }

    private void advance(Duration by) {
        now.updateAndGet(instant -> instant.plus(by));
    }

    @Mock
    private ActivityStore activities;
    @Mock
    private StockReservationPort stock;

    @Test
    void onlyNoevictionKeepsASalesKeys() {
        assertThat(SAFE.mayEvictSaleKeys()).isFalse();
        for (String policy : List.of("allkeys-lru", "allkeys-lfu", "allkeys-random", "volatile-lru", "volatile-lfu",
                "volatile-random", "volatile-ttl")) {
            assertThat(new NodeEvictionPolicy("r:1", policy).mayEvictSaleKeys()).as(policy).isTrue();
        }
    }

    @Test
    void givenOneNodeOfTwoMayEvict_whenAWarmUpAsks_thenRefusedNamingThatNode() {
        policies.set(List.of(SAFE, LRU));

        assertThatThrownBy(guard::requireNoEviction).isInstanceOfSatisfying(HotStoreMayEvictException.class,
                refused -> assertThat(refused.unsafe()).containsExactly(LRU))
                .hasMessageContaining("allkeys-lru on r2:6379").hasMessageContaining("noeviction");
    }

    @Test
    void givenNoeviction_whenAWarmUpAsks_thenItPassesOnAFreshReadEachTime() {
        guard.requireNoEviction();
        guard.requireNoEviction();

        assertThat(reads).hasValue(2);
    }

    @Test
    void givenAReading_thenReadinessReusesItUntilTheRecheckPeriodHasPassed() {
        assertThat(guard.current().mayEvictSaleKeys()).isFalse();
        policies.set(List.of(LRU));
        advance(RECHECK.minusMillis(1));

        assertThat(guard.current().mayEvictSaleKeys()).as("within the period").isFalse();
        assertThat(reads).hasValue(1);

        advance(Duration.ofMillis(1));
        assertThat(guard.current().mayEvictSaleKeys()).as("read again").isTrue();
        assertThat(guard.current().readAt()).isEqualTo(NOW.plus(RECHECK));
        assertThat(reads).hasValue(2);
    }

    @Test
    void givenRedisOutOfReach_thenTheLastReadingStandsAndNothingIsReadUntilTheNextPeriod() {
        policies.set(List.of(LRU));
        assertThat(guard.current().mayEvictSaleKeys()).isTrue();
        policies.set(null);
        advance(RECHECK);

        assertThat(guard.current().mayEvictSaleKeys()).isTrue();
        assertThat(guard.current().readAt()).isEqualTo(NOW);
        assertThat(reads).hasValue(2);
        assertThatThrownBy(guard::requireNoEviction).isInstanceOf(StoreUnavailableException.class);
    }

    @Test
    void neverRead_thenNotReadAndNotUnsafe() {
        policies.set(null);

        EvictionPolicyGuard.EvictionCheck check = guard.current();

        assertThat(check.read()).isFalse();
        assertThat(check.mayEvictSaleKeys()).isFalse();
    }

    @Test
    void givenRedisMayEvict_whenASaleIsWarmedUp_thenRefusedBeforeAnythingIsLoadedOrRecorded() {
        ActivityId id = new ActivityId("summer-sale");
        Activity activity = new Activity(id, "Summer sale", NOW, NOW.plusSeconds(3600), PurchaseLimit.ONE,
                Activity.DEFAULT_PAYMENT_TIMEOUT, List.of(ActivityItem.of("a", 10)));
        when(activities.findById(id)).thenReturn(Optional.of(activity));
        when(activities.archivedAt(id)).thenReturn(Optional.empty());
        policies.set(List.of(LRU));
        ActivityService service = new ActivityService(activities, ignored -> Optional.empty(), stock, () -> "id",
                Duration.ZERO, SaleChangesPort.none(), RecentStockFigures.none(stock), guard);

        assertThatThrownBy(() -> service.warmUp(id)).isInstanceOf(HotStoreMayEvictException.class);

        verify(stock, never()).warmUp(any());
        verify(activities, never()).recordLoad(any());
    }

    @Test
    void givenRedisMayEvict_whenTheSchedulePasses_thenNoDueSaleIsLoaded() {
        Activity due = new Activity(new ActivityId("due"), "Due", NOW.plusSeconds(30), NOW.plusSeconds(3600),
                PurchaseLimit.ONE, Activity.DEFAULT_PAYMENT_TIMEOUT, List.of(ActivityItem.of("a", 10)));
        when(activities.findUnarchivedOverlapping(any(), any())).thenReturn(List.of(due));
        policies.set(List.of(LRU));
        WarmUpScheduler scheduler = new WarmUpScheduler(activities, stock, clock, WarmUpScheduler.DEFAULT_LEAD,
                Duration.ZERO, guard);

        assertThatThrownBy(scheduler::warmUpDue).isInstanceOf(HotStoreMayEvictException.class);

        verify(stock, never()).warmUp(any());
        verify(activities, never()).recordLoad(any());
    }
}
