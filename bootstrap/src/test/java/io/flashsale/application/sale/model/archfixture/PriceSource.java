package io.flashsale.application.sale.model.archfixture;

/** Breaks the rules on purpose: an out-port hidden in a capability's model. */
public interface PriceSource {

    long priceOf(String skuId);
}
