package io.flashsale.adapter.mysql;

import io.flashsale.application.port.out.ReconciliationReportRepository;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reconciliation.ReconciliationReport;

import java.util.List;

/** Reconciliation reports in {@code reconciliation_report}: inserted once, read newest first. */
public class MysqlReconciliationReports implements ReconciliationReportRepository {

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
}
