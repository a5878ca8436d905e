package io.flashsale.adapter.redis;

import io.flashsale.application.sale.port.out.ActivitiesPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.stock.SkuStock;
import io.flashsale.domain.stock.StockLedger;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A database of record holding a few sales, none archived and none sold yet: just what the warm-up schedule asks.
 * Only the schedule's queries are answered.
 */
final class DueActivities implements ActivitiesPort {

    private final List<Activity> activities;

    DueActivities(Activity... activities) {
        this.activities = List.of(activities);
    }

    @Override
    public List<Activity> findUnarchivedOverlapping(Instant from, Instant to) {
        return activities.stream()
                .filter(activity -> !activity.startsAt().isAfter(to) && activity.endsAt().isAfter(from))
                .toList();
    }

    @Override
    public Optional<List<SkuStock>> recordedStock(ActivityId activityId) {
        return find(activityId).map(activity -> activity.items().stream()
                .map(item -> new SkuStock(item.skuId(), StockLedger.of(item.stock())))
                .toList());
    }

    private final java.util.Set<ActivityId> loaded = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @Override
    public void recordLoad(ActivityId activityId) {
        loaded.add(activityId);
    }

    @Override
    public boolean wasLoaded(ActivityId activityId) {
        return loaded.contains(activityId);
    }

    @Override
    public Optional<Activity> findById(ActivityId activityId) {
        return find(activityId);
    }

    @Override
    public Optional<Instant> archivedAt(ActivityId activityId) {
        return Optional.empty();
    }

    @Override
    public void add(Activity activity) {
        throw new UnsupportedOperationException("the warm-up schedule never adds activities");
    }

    @Override
    public List<Activity> findUnarchived(int limit) {
        throw new UnsupportedOperationException("the warm-up schedule never lists activities");
    }

    @Override
    public List<ActivityId> findEndedUnarchived(Instant now) {
        throw new UnsupportedOperationException("the warm-up schedule never archives");
    }

    @Override
    public boolean markArchived(ActivityId activityId, Instant at) {
        throw new UnsupportedOperationException("the warm-up schedule never archives");
    }

    private Optional<Activity> find(ActivityId activityId) {
        return activities.stream().filter(activity -> activity.id().equals(activityId)).findFirst();
    }
}
