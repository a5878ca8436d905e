package io.flashsale.chaos.check;

/** One SKU's counters as Redis holds them (the admin's stock view). */
public record HotLedger(long total, long available, long reserved, long sold) {
}
