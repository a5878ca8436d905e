package io.flashsale.adapter.web;

import java.util.List;

/** The activity's stored reports (drift found or something done), newest first. */
public record ReconciliationReportsResponse(String activityId, List<ReconciliationReportResponse> reports) {
}
