package io.flashsale.application.sale.port.in.archfixture;

/** Breaks the rules on purpose: a use case's value in port.in instead of the capability's model. */
public record SaleQuery(String activityId) {
}
