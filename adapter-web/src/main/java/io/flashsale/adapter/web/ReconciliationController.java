package io.flashsale.adapter.web;

import io.flashsale.adapter.web.security.AdminOnly;
import io.flashsale.adapter.web.security.AdminOperator;
import io.flashsale.application.reconciliation.port.in.ApproveRepairUseCase;
import io.flashsale.application.reconciliation.port.in.ListReconciliationReportsUseCase;
import io.flashsale.application.reconciliation.port.in.ReconcileActivityUseCase;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.shared.Identifier;
import io.flashsale.domain.shared.InvalidValueException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Redis compared with the database of record on demand, the reports kept of earlier comparisons, and an operator's
 * approval of a repair held back for review (ADR 85).
 */
@RestController
@RequestMapping("/api/v1/activities/{activityId}/reconciliation")
public class ReconciliationController {

    static final int DEFAULT_MAX = 50;
    static final int MAX_MAX = 1000;

    private final ReconcileActivityUseCase reconcile;
    private final ListReconciliationReportsUseCase reports;
    private final ApproveRepairUseCase approve;

    public ReconciliationController(ReconcileActivityUseCase reconcile, ListReconciliationReportsUseCase reports,
                                    ApproveRepairUseCase approve) {
        this.reconcile = reconcile;
        this.reports = reports;
        this.approve = approve;
    }

    /**
     * Reconciles every SKU now, repairing Redis from the database of record where it drifted up to the auto-repair
     * limit; a SKU that drifted further is reported NEEDS_REVIEW and left as found.
     */
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

    /** Per SKU whose repair waits for an operator's approval, its newest NEEDS_REVIEW report, in SKU order. */
    @AdminOnly
    @GetMapping("/reviews")
    public ReconciliationReportsResponse awaitingReview(@PathVariable String activityId) {
        ActivityId id = PathIds.activity(activityId);
        return new ReconciliationReportsResponse(id.value(), ReconciliationReportResponse.of(reports.awaitingReview(id)));
    }

    /**
     * Approves the repair of a SKU reported NEEDS_REVIEW: the SKU is reconciled afresh and whatever residual is found
     * now is repaired from the database of record, audited under the approving operator's name. 409
     * NO_REPAIR_AWAITING_APPROVAL when none waits (approved already, or the drift went away).
     */
    @AdminOnly
    @PostMapping("/{skuId}/approve-repair")
    public ReconciliationReportResponse approveRepair(@PathVariable String activityId, @PathVariable String skuId,
                                                      @RequestAttribute(AdminOperator.ATTRIBUTE) String operator) {
        ActivityId id = PathIds.activity(activityId);
        if (!Identifier.isValid(skuId)) {
            throw new NotFoundException(ProblemCode.SKU_NOT_FOUND, "the activity offers no such SKU");
        }
        return ReconciliationReportResponse.of(approve.approveRepair(id, new SkuId(skuId), operator));
    }
}
