package io.flashsale.adapter.mysql.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;
import io.flashsale.application.sale.port.out.ActivityLookupPort;
import io.flashsale.application.sale.port.out.ActivityRecord;
import io.flashsale.application.sale.port.out.ActivityRecordsPort;
import io.flashsale.application.sale.port.out.SaleChangeListener;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;

import java.time.Duration;
import java.util.Optional;

/**
 * What the database said of each sale, remembered so that the crowd reading a sale (its page polls it every second),
 * or refused at a sale the hot store does not hold, costs the database one query per sale now and then, not one per
 * request. A sale is forgotten when a change of it is heard ({@link #changed}, on every instance through the sale
 * changes channel) or after {@code known} at the latest, the bound for a lost notice; an unknown id is remembered for
 * {@code unknown} only, and forgotten at once when the sale is created. Concurrent reads of one id wait for one query,
 * and a change heard while that query runs forgets its answer. Figures as Micrometer's {@code cache.gets},
 * {@code cache.size}, ... tagged {@code cache=}{@value #NAME}. Kept apart from the adapter's port classes: the
 * repository it asks translates the database's outages already, and nothing here touches the database.
 */
public final class RememberedActivities implements ActivityRecordsPort, ActivityLookupPort, SaleChangeListener {

    public static final String NAME = "activity-lookups";

    /**
     * @param known   how long a sale is remembered at most without a notice of its change; zero remembers nothing
     * @param unknown how long an id the database does not know is remembered; zero remembers nothing
     * @param maxSize ids remembered at most; the least used go first
     */
    public record Memory(Duration known, Duration unknown, long maxSize) {

        public Memory {
            if (known == null || known.isNegative() || unknown == null || unknown.isNegative()) {
                throw new IllegalArgumentException("memories must be zero or positive: " + known + ", " + unknown);
            }
            if (maxSize < 1) {
                throw new IllegalArgumentException("maxSize must be positive, was " + maxSize);
            }
        }
    }

    private final ActivityRecordsPort database;
    private final Cache<ActivityId, Optional<ActivityRecord>> remembered;

    public RememberedActivities(ActivityRecordsPort database, Memory memory, MeterRegistry meters) {
        this(database, memory, Ticker.systemTicker());
        CaffeineCacheMetrics.monitor(meters, remembered, NAME);
    }

    RememberedActivities(ActivityRecordsPort database, Memory memory, Ticker ticker) {
        this.database = database;
        this.remembered = Caffeine.newBuilder()
                .expireAfter(new RememberFor(memory))
                .maximumSize(memory.maxSize())
                .ticker(ticker)
                .recordStats()
                .build();
    }

    @Override
    public Optional<ActivityRecord> find(ActivityId activityId) {
        return remembered.get(activityId, database::find);
    }

    @Override
    public Optional<Activity> findById(ActivityId activityId) {
        return find(activityId).map(ActivityRecord::activity);
    }

    @Override
    public void changed(ActivityId activityId) {
        remembered.invalidate(activityId);
    }

    @Override
    public void missedSome() {
        remembered.invalidateAll();
    }

    /** A known sale for {@code known}, an unknown id for {@code unknown}, counted from the database's answer. */
    private record RememberFor(Memory memory) implements Expiry<ActivityId, Optional<ActivityRecord>> {

        @Override
        public long expireAfterCreate(ActivityId id, Optional<ActivityRecord> answer, long now) {
            return (answer.isPresent() ? memory.known() : memory.unknown()).toNanos();
        }

        @Override
        public long expireAfterUpdate(ActivityId id, Optional<ActivityRecord> answer, long now, long current) {
            return expireAfterCreate(id, answer, now);
        }

        @Override
        public long expireAfterRead(ActivityId id, Optional<ActivityRecord> answer, long now, long current) {
            return current;
        }
    }
}
