package io.flashsale.domain.activity;

import io.flashsale.domain.shared.Identifier;

public record ActivityId(String value) {

    public ActivityId {
        Identifier.require(value, "activityId");
    }

    @Override
    public String toString() {
        return value;
    }
}
