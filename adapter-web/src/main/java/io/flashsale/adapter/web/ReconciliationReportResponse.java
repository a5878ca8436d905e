package io.flashsale.adapter.web;

import io.flashsale.domain.reconciliation.LedgerFigures;
import io.flashsale.domain.reconciliation.ReconciliationReport;
import io.flashsale.domain.reservation.ReservationId;

import java.time.Instant;
import java.util.List;

/**
 * One SKU's reconciliation: what the database of record says Redis should hold ({@code expected}), what it held
 * ({@code actual}), their difference ({@code drift}, actual minus expected) and Redis after the action taken.
 */
public record ReconciliationReportResponse(String skuId, Instant runAt, String classification, String action,
                                           FiguresResponse expected, FiguresResponse actual, FiguresResponse drift,
                                           FiguresResponse after, long driftUnits, List<HoldingResponse> holdings,
                                           String detail, List<String> redriven, List<String> confirmed,
                                           List<String> released) {

    public record FiguresResponse(long total, long available, long reserved, long sold) {

        static FiguresResponse of(LedgerFigures figures) {
            return new FiguresResponse(figures.total(), figures.available(), figures.reserved(), figures.sold());
        }
    }

    /** A buyer whose units held in Redis differ from what the database of record says. */
    public record HoldingResponse(String buyerId, long expected, long actual) {
    }

    static ReconciliationReportResponse of(ReconciliationReport report) {
        return new ReconciliationReportResponse(report.skuId().value(), report.runAt(),
                report.classification().name(), report.action().name(), FiguresResponse.of(report.expected()),
                FiguresResponse.of(report.actual()), FiguresResponse.of(report.drift()),
                FiguresResponse.of(report.after()), report.driftUnits(),
                report.holdingMismatches().stream()
                        .map(m -> new HoldingResponse(m.buyerId().value(), m.expected(), m.actual())).toList(),
                report.detail(), ids(report.redriven()), ids(report.confirmed()), ids(report.released()));
    }

    static List<ReconciliationReportResponse> of(List<ReconciliationReport> reports) {
        return reports.stream().map(ReconciliationReportResponse::of).toList();
    }

    private static List<String> ids(List<ReservationId> reservations) {
        return reservations.stream().map(ReservationId::value).toList();
    }
}
