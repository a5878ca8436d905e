package io.flashsale.adapter.web;

import io.flashsale.application.sale.model.ListedActivity;

import java.time.Instant;
import java.util.List;

/** The sales not archived yet, latest start first, each with its phase now (NOT_STARTED, OPEN, ENDED). */
public record ListedActivitiesResponse(List<ListedSale> activities) {

    public record ListedSale(String id, String name, Instant startsAt, Instant endsAt, String phase, boolean paused,
                             List<String> skuIds) {
    }

    static ListedActivitiesResponse of(List<ListedActivity> listed) {
        return new ListedActivitiesResponse(listed.stream()
                .map(entry -> new ListedSale(entry.activity().id().value(), entry.activity().name(),
                        entry.activity().startsAt(), entry.activity().endsAt(), entry.phase().name(),
                        entry.activity().paused(),
                        entry.activity().items().stream().map(item -> item.skuId().value()).toList()))
                .toList());
    }
}
