package io.flashsale.adapter.mysql;

import java.time.Instant;

/** One row of {@code reconciliation_report}; the lists are encoded by {@link ReconciliationReportRows}. */
record ReconciliationReportRow(long id, String activityId, String skuId, Instant runAt, String classification,
                               String action, long expectedTotal, long expectedReserved, long expectedSold,
                               long expectedAvailable, long actualTotal, long actualReserved, long actualSold,
                               long actualAvailable, long afterTotal, long afterReserved, long afterSold,
                               long afterAvailable, String holdingMismatches, String redriven, String confirmed,
                               String released, String detail) {
}
