-- Drift above the automatic repair's limit waits for an operator (ADR 85). Runs unchanged on MySQL 8 and MariaDB 10.11.
-- Such a run is kept as a NEEDS_REVIEW report, open until an operator approves the repair or a later run finds the SKU
-- within the limit; closing names who closed it (the operator, or 'reconciliation') and when (UTC).
ALTER TABLE reconciliation_report
    DROP CONSTRAINT ck_reconciliation_report_action,
    ADD CONSTRAINT ck_reconciliation_report_action CHECK (action IN
        ('NONE', 'REBUILT', 'REPAIRED', 'CONFIRMED', 'REDRIVEN', 'DEFERRED', 'NEEDS_REVIEW')),
    ADD COLUMN review_closed_by VARCHAR(100) NULL COMMENT 'NEEDS_REVIEW only: who closed it; NULL while open',
    ADD COLUMN review_closed_at DATETIME(3) NULL COMMENT 'UTC',
    ADD INDEX ix_reconciliation_report_review (activity_id, action, review_closed_at, sku_id, id);
