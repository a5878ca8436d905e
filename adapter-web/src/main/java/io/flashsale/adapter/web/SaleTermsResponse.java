package io.flashsale.adapter.web;

import io.flashsale.domain.activity.Activity;

import java.time.Instant;

/** A sale's window and pause as recorded after an operator's change (ADR 79). */
public record SaleTermsResponse(String id, Instant startsAt, Instant endsAt, boolean paused) {

    static SaleTermsResponse of(Activity activity) {
        return new SaleTermsResponse(activity.id().value(), activity.startsAt(), activity.endsAt(), activity.paused());
    }
}
