package io.flashsale.application.sale.model;

import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.stock.SkuStock;

import java.util.List;
import java.util.Optional;

/** @param stock the live ledgers, or once archived the ledgers on record; empty while neither warmed up nor archived */
public record ActivityView(Activity activity, Optional<List<SkuStock>> stock) {
}
