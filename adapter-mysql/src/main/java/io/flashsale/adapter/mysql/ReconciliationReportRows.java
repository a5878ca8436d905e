package io.flashsale.adapter.mysql;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.HoldingMismatch;
import io.flashsale.domain.reconciliation.LedgerFigures;
import io.flashsale.domain.reconciliation.ReconciliationAction;
import io.flashsale.domain.reconciliation.ReconciliationClassification;
import io.flashsale.domain.reconciliation.ReconciliationReport;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.ReservationId;

import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Reports to rows and back. Ids never contain {@code ,} or {@code :}, so the lists are comma-separated and a mismatch
 * is {@code buyer:expected:actual}. The run's instant is kept to the millisecond, as every time column is.
 */
final class ReconciliationReportRows {

    static final int MAX_DETAIL = 2000;

    private ReconciliationReportRows() {
    }

    static ReconciliationReportRow toRow(ReconciliationReport report) {
        LedgerFigures expected = report.expected();
        LedgerFigures actual = report.actual();
        LedgerFigures after = report.after();
        return new ReconciliationReportRow(0, report.activityId().value(), report.skuId().value(),
                report.runAt().truncatedTo(ChronoUnit.MILLIS), report.classification().name(), report.action().name(),
                expected.total(), expected.reserved(), expected.sold(), expected.available(),
                actual.total(), actual.reserved(), actual.sold(), actual.available(),
                after.total(), after.reserved(), after.sold(), after.available(),
                report.holdingMismatches().stream()
                        .map(mismatch -> mismatch.buyerId().value() + ":" + mismatch.expected() + ":" + mismatch.actual())
                        .collect(Collectors.joining(",")),
                ids(report.redriven()), ids(report.confirmed()), ids(report.released()), shortened(report.detail()));
    }

    static ReconciliationReport toReport(ReconciliationReportRow row) {
        return new ReconciliationReport(new ActivityId(row.activityId()), new SkuId(row.skuId()), row.runAt(),
                ReconciliationClassification.valueOf(row.classification()), ReconciliationAction.valueOf(row.action()),
                new LedgerFigures(row.expectedTotal(), row.expectedReserved(), row.expectedSold(), row.expectedAvailable()),
                new LedgerFigures(row.actualTotal(), row.actualReserved(), row.actualSold(), row.actualAvailable()),
                new LedgerFigures(row.afterTotal(), row.afterReserved(), row.afterSold(), row.afterAvailable()),
                mismatches(row.holdingMismatches()), reservationIds(row.redriven()), reservationIds(row.confirmed()),
                reservationIds(row.released()), row.detail());
    }

    /** The detail as kept: cut at the column's size, marked as cut. */
    static String shortened(String detail) {
        return detail.length() <= MAX_DETAIL ? detail : detail.substring(0, MAX_DETAIL - 1) + "…";
    }

    private static String ids(List<ReservationId> ids) {
        return ids.stream().map(ReservationId::value).collect(Collectors.joining(","));
    }

    private static List<ReservationId> reservationIds(String column) {
        return parts(column).stream().map(ReservationId::new).toList();
    }

    private static List<HoldingMismatch> mismatches(String column) {
        List<HoldingMismatch> mismatches = new ArrayList<>();
        for (String entry : parts(column)) {
            String[] fields = entry.split(":");
            mismatches.add(new HoldingMismatch(new BuyerId(fields[0]), Long.parseLong(fields[1]),
                    Long.parseLong(fields[2])));
        }
        return mismatches;
    }

    private static List<String> parts(String column) {
        return column.isEmpty() ? List.of() : Arrays.asList(column.split(","));
    }
}
