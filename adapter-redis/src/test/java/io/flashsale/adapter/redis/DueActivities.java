package io.flashsale.adapter.redis;

import io.flashsale.application.sale.port.out.ActivityLoadsPort;
import io.flashsale.application.sale.port.out.ActivityWindowsPort;
import io.flashsale.application.sale.port.out.RecordedLedgersPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.stock.SkuStock;
import io.flashsale.domain.stock.StockLedger;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A database of record holding a few sales, none archived and none sold yet: just the roles the warm-up schedule is
 * handed (its windows, the loads it records, the ledgers of a sale it may have lost).
 */
final class DueActivities implements ActivityWindowsPort, ActivityLoadsPort, RecordedLedgersPort {

    private final List<Activity> activities;
    private final Set<ActivityId> loaded = ConcurrentHashMap.newKeySet();

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
        return activities.stream().filter(activity -> activity.id().equals(activityId)).findFirst()
                .map(activity -> activity.items().stream()
                        .map(item -> new SkuStock(item.skuId(), StockLedger.of(item.stock())))
                        .toList());
    }

    @Override
    public void recordLoad(ActivityId activityId) {
        loaded.add(activityId);
    }

    @Override
    public boolean wasLoaded(ActivityId activityId) {
        return loaded.contains(activityId);
    }
}
