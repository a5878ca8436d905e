package io.flashsale.application.reservation.service;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.BucketLimit;

import java.util.Map;

/**
 * The rate limits an attempt passes before the hot store is asked; a null limit is off. A sale may carry its own
 * buyer and sale limits ({@code buyerBySale}, {@code saleBySale}), which replace the defaults for that sale only.
 *
 * @param buyer       each buyer's attempts at one sale, counted across every instance
 * @param client      each client address's attempts (all sales), counted across every instance
 * @param sale        the attempts at one sale that one instance admits
 */
public record AdmissionPolicy(BucketLimit buyer, Map<ActivityId, BucketLimit> buyerBySale, BucketLimit client,
                              BucketLimit sale, Map<ActivityId, BucketLimit> saleBySale) {

    public AdmissionPolicy {
        buyerBySale = Map.copyOf(buyerBySale == null ? Map.of() : buyerBySale);
        saleBySale = Map.copyOf(saleBySale == null ? Map.of() : saleBySale);
    }

    /** No limit at all. */
    public static AdmissionPolicy unlimited() {
        return new AdmissionPolicy(null, Map.of(), null, null, Map.of());
    }

    BucketLimit buyerAt(ActivityId activityId) {
        return buyerBySale.isEmpty() ? buyer : buyerBySale.getOrDefault(activityId, buyer);
    }

    BucketLimit saleAt(ActivityId activityId) {
        return saleBySale.isEmpty() ? sale : saleBySale.getOrDefault(activityId, sale);
    }

    boolean limitsAnything() {
        return buyer != null || client != null || sale != null || !buyerBySale.isEmpty() || !saleBySale.isEmpty();
    }
}
