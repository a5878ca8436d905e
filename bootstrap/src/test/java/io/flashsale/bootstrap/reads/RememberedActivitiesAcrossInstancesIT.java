package io.flashsale.bootstrap.reads;

import io.flashsale.adapter.mysql.cache.RememberedActivities;
import io.flashsale.adapter.redis.RedisHotStore;
import io.flashsale.application.sale.port.out.ActivityRecord;
import io.flashsale.application.sale.port.out.ActivityRecordsPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.testsupport.TestServices;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances' memories of sales, each told by its own {@link RedisHotStore} on the real Redis: a change announced
 * on one is seen by the other within 100 ms, though both remember each sale for a minute. The database is a map here:
 * what is measured is the notice, not a query.
 */
@Timeout(60)
class RememberedActivitiesAcrossInstancesIT {

    private static final long WINDOW_MS = 100;
    private static final RememberedActivities.Memory A_MINUTE =
            new RememberedActivities.Memory(Duration.ofMinutes(1), Duration.ofMinutes(1), 1_000);

    private final Map<ActivityId, ActivityRecord> database = new ConcurrentHashMap<>();
    private final ActivityRecordsPort records = id -> Optional.ofNullable(database.get(id));
    private final String registry = "fs:outbox:it-reads-" + UUID.randomUUID();
    private RedisHotStore storeOfA;
    private RedisHotStore storeOfB;
    private RememberedActivities a;
    private RememberedActivities b;

    @BeforeEach
    void twoInstances() {
        var settings = new RedisHotStore.Settings(TestServices.redis().host(), TestServices.redis().port(), null, 0,
                Duration.ofSeconds(10));
        storeOfA = RedisHotStore.connect(settings, registry);
        storeOfB = RedisHotStore.connect(settings, registry);
        a = new RememberedActivities(records, A_MINUTE, new SimpleMeterRegistry());
        b = new RememberedActivities(records, A_MINUTE, new SimpleMeterRegistry());
        storeOfA.saleChanges().subscribe(a);
        storeOfB.saleChanges().subscribe(b);
    }

    @AfterEach
    void close() {
        storeOfA.close();
        storeOfB.close();
    }

    private static ActivityRecord named(ActivityId id, String name) {
        Instant start = Instant.parse("2030-06-01T10:00:00Z");
        return new ActivityRecord(new Activity(id, name, start, start.plusSeconds(3600), PurchaseLimit.ONE,
                Activity.DEFAULT_PAYMENT_TIMEOUT, List.of(ActivityItem.of("a", 10))), Optional.empty());
    }

    private static String nameIn(RememberedActivities memory, ActivityId id) {
        return memory.find(id).map(record -> record.activity().name()).orElse("unknown");
    }

    /** Milliseconds until {@code memory} shows {@code name}, polling; -1 after a second. */
    private static long millisUntil(RememberedActivities memory, ActivityId id, String name, long since) {
        long deadline = since + TimeUnit.SECONDS.toNanos(1);
        while (System.nanoTime() < deadline) {
            if (name.equals(nameIn(memory, id))) {
                return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
            }
            Thread.onSpinWait();
        }
        return -1;
    }

    /**
     * Seven changes in a row: the median delay must be inside the window. A single sample on a box shared by many
     * builds can be late for reasons that have nothing to do with the notice; each must still arrive within a second.
     */
    @Test
    void givenBothRememberASale_whenItChangesAndAIsToldSo_thenASeesItAtOnceAndBWithinTheWindow() {
        ActivityId sale = new ActivityId("reads-" + UUID.randomUUID().toString().substring(0, 8));
        database.put(sale, named(sale, "v0"));
        assertThat(nameIn(a, sale)).isEqualTo("v0");
        assertThat(nameIn(b, sale)).isEqualTo("v0");
        List<Long> delaysMs = new ArrayList<>();
        for (int trial = 1; trial <= 7; trial++) {
            database.put(sale, named(sale, "v" + trial));
            assertThat(nameIn(b, sale)).as("remembered until told").isEqualTo("v" + (trial - 1));

            long announced = System.nanoTime();
            storeOfA.saleChanges().announce(sale);

            assertThat(nameIn(a, sale)).as("the announcing instance").isEqualTo("v" + trial);
            long delay = millisUntil(b, sale, "v" + trial, announced);
            assertThat(delay).as("the other instance saw change %d", trial).isNotNegative();
            delaysMs.add(delay);
        }
        delaysMs.sort(null);
        assertThat(delaysMs.get(3)).as("median delay of %s", delaysMs).isLessThan(WINDOW_MS);
    }

    @Test
    void givenBRemembersAnIdAsUnknown_whenASaleOfThatIdIsCreatedOnA_thenBFindsItWithinTheWindow() {
        ActivityId sale = new ActivityId("reads-" + UUID.randomUUID().toString().substring(0, 8));
        assertThat(nameIn(b, sale)).isEqualTo("unknown");
        database.put(sale, named(sale, "new"));
        assertThat(nameIn(b, sale)).as("remembered as unknown until told").isEqualTo("unknown");

        long announced = System.nanoTime();
        storeOfA.saleChanges().announce(sale);

        assertThat(millisUntil(b, sale, "new", announced)).isBetween(0L, 1_000L);
    }
}
