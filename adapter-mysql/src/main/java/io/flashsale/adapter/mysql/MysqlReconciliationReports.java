package io.flashsale.adapter.mysql;

import io.flashsale.application.reconciliation.port.out.ReconciliationReportsPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.ReconciliationReport;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * Reconciliation reports in {@code reconciliation_report}: inserted once, read newest first; a NEEDS_REVIEW one is
 * later closed, once, by the operator who approved the repair or by reconciliation (ADR 85).
 */
public class MysqlReconciliationReports implements ReconciliationReportsPort {

    private final ReconciliationReportDao dao;

    MysqlReconciliationReports(ReconciliationReportDao dao) {
        this.dao = dao;
    }

    @Override
    public void save(ReconciliationReport report) {
        dao.insertReport(ReconciliationReportRows.toRow(report));
    }

    @Override
    public List<ReconciliationReport> findRecent(ActivityId activityId, int max) {
        return dao.selectRecent(activityId.value(), max).stream().map(ReconciliationReportRows::toReport).toList();
    }

    @Override
    public List<ReconciliationReport> awaitingReview(ActivityId activityId) {
        return dao.selectAwaitingReview(activityId.value()).stream().map(ReconciliationReportRows::toReport).toList();
    }

    @Override
    public int closeReviews(ActivityId activityId, SkuId skuId, String closedBy, Instant closedAt) {
        return dao.closeReviews(activityId.value(), skuId.value(), closedBy, closedAt.truncatedTo(ChronoUnit.MILLIS));
    }
}
