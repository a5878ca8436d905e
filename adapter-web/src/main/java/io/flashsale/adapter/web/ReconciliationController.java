package io.flashsale.adapter.web;

import io.flashsale.application.port.in.ListReconciliationReportsUseCase;
import io.flashsale.application.port.in.ReconcileActivityUseCase;
import io.flashsale.adapter.web.security.AdminOnly;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.shared.InvalidValueException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Redis compared with the database of record on demand, and the reports kept of earlier comparisons. */
@RestController
@RequestMapping("/api/v1/activities/{activityId}/reconciliation")
public class ReconciliationController {

    static final int DEFAULT_MAX = 50;
    static final int MAX_MAX = 1000;

    private final ReconcileActivityUseCase reconcile;
    private final ListReconciliationReportsUseCase reports;

    public ReconciliationController(ReconcileActivityUseCase reconcile, ListReconciliationReportsUseCase reports) {
        this.reconcile = reconcile;
        this.reports = reports;
    }

    /** Reconciles every SKU now, repairing Redis from the database of record where it drifted. */
    @AdminOnly
    @PostMapping
    public ReconciliationResponse reconcile(@PathVariable String activityId) {
        return ReconciliationResponse.of(reconcile.reconcile(PathIds.activity(activityId)));
    }

    /** Newest first, at most {@code max} (1..1000, default 50). */
    @AdminOnly
    @GetMapping
    public ReconciliationReportsResponse recent(@PathVariable String activityId,
                                                @RequestParam(name = "max", required = false) Integer max) {
        int limit = max == null ? DEFAULT_MAX : max;
        if (limit < 1 || limit > MAX_MAX) {
            throw new InvalidValueException("max", "must be between 1 and " + MAX_MAX);
        }
        ActivityId id = PathIds.activity(activityId);
        return new ReconciliationReportsResponse(id.value(), ReconciliationReportResponse.of(reports.recent(id, limit)));
    }
}
