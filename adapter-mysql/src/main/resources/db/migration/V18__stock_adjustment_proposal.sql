-- Stock adjustments under four eyes (ADR 84): one operator proposes, a different one approves, and only then is the
-- adjustment applied (a stock_adjustment row, in the transaction that moves the proposal out of PENDING, once).
-- A pending proposal past expires_at can no longer be approved; EXPIRED is derived, never stored. Rows are never
-- deleted: who proposed, who decided and when stay on record. Runs unchanged on MySQL 8 and MariaDB 10.11.
CREATE TABLE stock_adjustment_proposal (
    id            BIGINT NOT NULL AUTO_INCREMENT,
    activity_id   VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    sku_id        VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    delta         BIGINT       NOT NULL,
    reason        VARCHAR(500) NOT NULL,
    proposed_by   VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL
                  COMMENT 'the operator whose admin token made the proposal',
    proposed_at   DATETIME(3)  NOT NULL COMMENT 'UTC',
    expires_at    DATETIME(3)  NOT NULL COMMENT 'UTC; no approval from then on',
    status        VARCHAR(16)  NOT NULL COMMENT 'PENDING, APPROVED, REJECTED or WITHDRAWN',
    decided_by    VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL
                  COMMENT 'the operator who approved, rejected or withdrew it',
    decided_at    DATETIME(3)  NULL COMMENT 'UTC',
    adjustment_id BIGINT       NULL COMMENT 'the stock_adjustment it became, once approved',
    PRIMARY KEY (id),
    INDEX ix_stock_adjustment_proposal_activity (activity_id, id),
    UNIQUE KEY uq_stock_adjustment_proposal_adjustment (adjustment_id),
    CONSTRAINT fk_stock_adjustment_proposal_item FOREIGN KEY (activity_id, sku_id)
        REFERENCES activity_item (activity_id, sku_id),
    CONSTRAINT fk_stock_adjustment_proposal_adjustment FOREIGN KEY (adjustment_id) REFERENCES stock_adjustment (id),
    CONSTRAINT ck_stock_adjustment_proposal_delta CHECK (delta <> 0),
    CONSTRAINT ck_stock_adjustment_proposal_status CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED', 'WITHDRAWN')),
    CONSTRAINT ck_stock_adjustment_proposal_decided CHECK ((status = 'PENDING') = (decided_by IS NULL)),
    CONSTRAINT ck_stock_adjustment_proposal_applied CHECK ((status = 'APPROVED') = (adjustment_id IS NOT NULL)),
    CONSTRAINT ck_stock_adjustment_proposal_four_eyes CHECK (status NOT IN ('APPROVED', 'REJECTED')
        OR decided_by <> proposed_by)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
