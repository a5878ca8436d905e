package io.flashsale.adapter.web;

import com.fasterxml.jackson.annotation.JsonInclude;

/** @param perUserLimit the limit that applies to this SKU: its own, else the activity's */
public record ActivityItemResponse(String skuId, long stock, int perUserLimit, int segments,
                                   @JsonInclude(JsonInclude.Include.NON_NULL) Long available) {
}
