-- Reconciliation and audited stock adjustments. Runs unchanged on MySQL 8 and MariaDB 10.11.
-- Same conventions as V1-V5: ids utf8mb4_bin, times DATETIME(3) holding UTC wall-clock time.

-- Every change of an item's total after the sale was created, appended in the transaction that changes the total and
-- never changed after (the adapter only inserts and reads). The id is what Redis marks applied, so an adjustment
-- reaches the hot store at most once. The foreign key's check runs on the item row the same transaction has just
-- updated, so it waits for nothing.
CREATE TABLE stock_adjustment (
    id               BIGINT NOT NULL AUTO_INCREMENT,
    activity_id      VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    sku_id           VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    delta            BIGINT       NOT NULL,
    stock_before     BIGINT       NOT NULL,
    stock_after      BIGINT       NOT NULL,
    sold_at_the_time BIGINT       NOT NULL COMMENT 'activity_item.sold when the total changed',
    operator         VARCHAR(100) NOT NULL COMMENT 'who asked for it, as authenticated',
    reason           VARCHAR(500) NOT NULL,
    created_at       DATETIME(3)  NOT NULL COMMENT 'UTC',
    PRIMARY KEY (id),
    INDEX ix_stock_adjustment_item (activity_id, sku_id, id),
    CONSTRAINT fk_stock_adjustment_item FOREIGN KEY (activity_id, sku_id) REFERENCES activity_item (activity_id, sku_id),
    CONSTRAINT ck_stock_adjustment_delta CHECK (delta <> 0),
    CONSTRAINT ck_stock_adjustment_after CHECK (stock_after = stock_before + delta),
    CONSTRAINT ck_stock_adjustment_sold CHECK (sold_at_the_time >= 0 AND sold_at_the_time <= stock_after)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- Reconciliation runs that found drift or did something (clean runs only move the drift gauge). Figures are seen as if
-- every move on its way between the stores had landed: expected (MySQL), actual (Redis) before the action, after it.
-- The reservation lists are comma-separated ids; the holding mismatches "buyer:expected:actual" entries.
CREATE TABLE reconciliation_report (
    id                 BIGINT NOT NULL AUTO_INCREMENT,
    activity_id        VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    sku_id             VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    run_at             DATETIME(3) NOT NULL COMMENT 'UTC',
    classification     VARCHAR(32) NOT NULL,
    action             VARCHAR(16) NOT NULL,
    expected_total     BIGINT NOT NULL,
    expected_reserved  BIGINT NOT NULL,
    expected_sold      BIGINT NOT NULL,
    expected_available BIGINT NOT NULL,
    actual_total       BIGINT NOT NULL,
    actual_reserved    BIGINT NOT NULL,
    actual_sold        BIGINT NOT NULL,
    actual_available   BIGINT NOT NULL,
    after_total        BIGINT NOT NULL,
    after_reserved     BIGINT NOT NULL,
    after_sold         BIGINT NOT NULL,
    after_available    BIGINT NOT NULL,
    holding_mismatches MEDIUMTEXT NOT NULL,
    redriven           MEDIUMTEXT NOT NULL,
    confirmed          MEDIUMTEXT NOT NULL,
    released           MEDIUMTEXT NOT NULL,
    detail             VARCHAR(2000) NOT NULL,
    PRIMARY KEY (id),
    INDEX ix_reconciliation_report_activity (activity_id, id),
    CONSTRAINT ck_reconciliation_report_classification CHECK (classification IN
        ('NONE', 'REDIS_AHEAD', 'UNKNOWN_RESERVATION', 'MISSING_RESERVATION', 'REDIS_BEHIND')),
    CONSTRAINT ck_reconciliation_report_action CHECK (action IN
        ('NONE', 'REBUILT', 'REPAIRED', 'CONFIRMED', 'REDRIVEN', 'DEFERRED'))
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
