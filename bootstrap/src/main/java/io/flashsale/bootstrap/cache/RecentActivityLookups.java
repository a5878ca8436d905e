package io.flashsale.bootstrap.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.flashsale.application.port.out.ActivityLookupPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;

import java.time.Duration;
import java.util.Optional;

/**
 * The reservation path's look-ups of sales the hot store does not hold (unknown ids, sales not loaded yet, archived
 * ones), remembered for {@code ttl}: a crowd refreshing before the warm-up, or a bot walking ids, costs the database
 * one query per id and {@code ttl}, not one per request. Concurrent look-ups of one id wait for one query. An answer
 * may be {@code ttl} old: a sale created meanwhile reads as unknown (404 instead of 503) until then. Figures as
 * Micrometer's {@code cache.gets}, {@code cache.size}, ... tagged {@code cache=}{@value #NAME}.
 */
public final class RecentActivityLookups implements ActivityLookupPort {

    public static final String NAME = "activity-lookups";

    private final ActivityLookupPort activities;
    private final Cache<ActivityId, Optional<Activity>> recent;

    /** @param maximumSize ids remembered at most; the least used go first */
    public RecentActivityLookups(ActivityLookupPort activities, Duration ttl, long maximumSize, MeterRegistry meters) {
        this(activities, ttl, maximumSize, meters, NAME);
    }

    /**
     * @param name the {@code cache} tag of its figures: each cache needs its own, or Micrometer keeps the first one's
     *             figures under the name and the second one's are never seen
     */
    public RecentActivityLookups(ActivityLookupPort activities, Duration ttl, long maximumSize, MeterRegistry meters,
                                 String name) {
        this.activities = activities;
        this.recent = Caffeine.newBuilder().expireAfterWrite(ttl).maximumSize(maximumSize).recordStats().build();
        CaffeineCacheMetrics.monitor(meters, recent, name);
    }

    @Override
    public Optional<Activity> findById(ActivityId activityId) {
        return recent.get(activityId, activities::findById);
    }
}
