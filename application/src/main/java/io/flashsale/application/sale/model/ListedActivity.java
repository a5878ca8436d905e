package io.flashsale.application.sale.model;

import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.SalePhase;

/** A sale as the operator's list shows it: the sale and where it stands in its window now. */
public record ListedActivity(Activity activity, SalePhase phase) {
}
