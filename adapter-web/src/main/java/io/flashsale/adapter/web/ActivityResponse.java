package io.flashsale.adapter.web;

import io.flashsale.application.sale.model.ActivityView;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.stock.SkuStock;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * An activity as the API shows it; {@code items[].available} appears once the sale is warmed up; {@code paused} while
 * an operator has paused it (ADR 79).
 */
public record ActivityResponse(String id, String name, Instant startsAt, Instant endsAt, int perUserLimit,
                               long paymentTimeoutSeconds, boolean paused, boolean warmedUp,
                               List<ActivityItemResponse> items, int slices) {

    static ActivityResponse of(ActivityView view) {
        return of(view.activity(), view.stock());
    }

    static ActivityResponse of(Activity activity, Optional<List<SkuStock>> stock) {
        Map<SkuId, Long> available = stock.orElse(List.of()).stream()
                .collect(Collectors.toMap(SkuStock::skuId, sku -> sku.ledger().available(), (a, b) -> a));
        List<ActivityItemResponse> items = activity.items().stream()
                .map(item -> new ActivityItemResponse(item.skuId().value(), item.stock(),
                        activity.limitFor(item).max(), item.segments(),
                        stock.isPresent() ? available.get(item.skuId()) : null))
                .toList();
        return new ActivityResponse(activity.id().value(), activity.name(), activity.startsAt(), activity.endsAt(),
                activity.perUserLimit().max(), activity.paymentTimeout().toSeconds(), activity.paused(),
                stock.isPresent(), items, activity.slices().count());
    }
}
