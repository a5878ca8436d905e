package io.flashsale.application.reconciliation.model;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reconciliation.ReconciliationReport;

import java.util.List;

/**
 * What one pass of the reconciliation schedule did.
 *
 * @param reconciled activities the hot store held and that were reconciled
 * @param rebuilt    open sales the hot store had lost, rebuilt from the database of record (and reconciled)
 * @param findings   the reports that found drift or did something; a pass over healthy stores has none
 */
public record ReconciliationPass(List<ActivityId> reconciled, List<ActivityId> rebuilt,
                                 List<ReconciliationReport> findings) {

    public ReconciliationPass {
        reconciled = List.copyOf(reconciled);
        rebuilt = List.copyOf(rebuilt);
        findings = List.copyOf(findings);
    }
}
