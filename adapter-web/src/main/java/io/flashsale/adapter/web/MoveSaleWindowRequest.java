package io.flashsale.adapter.web;

import io.flashsale.application.sale.model.MoveSaleWindowCommand;
import io.flashsale.domain.activity.ActivityId;

import java.time.Instant;

/**
 * {@code PATCH /api/v1/activities/{id}}: a new end, a new start (before the sale starts), or both; a field left out
 * keeps its value.
 */
public record MoveSaleWindowRequest(Instant startsAt, Instant endsAt) {

    MoveSaleWindowCommand toCommand(ActivityId activityId) {
        return new MoveSaleWindowCommand(activityId, startsAt, endsAt);
    }
}
