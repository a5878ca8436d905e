package io.flashsale.application.sale.model;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.shared.InvalidValueException;
import io.flashsale.domain.shared.Require;

import java.time.Instant;

/**
 * A new start, a new end, or both, for one sale.
 *
 * @param startsAt null to keep the start
 * @param endsAt   null to keep the end
 */
public record MoveSaleWindowCommand(ActivityId activityId, Instant startsAt, Instant endsAt) {

    public MoveSaleWindowCommand {
        Require.present(activityId, "activityId");
        if (startsAt == null && endsAt == null) {
            throw new InvalidValueException("endsAt", "or startsAt must be given");
        }
    }
}
