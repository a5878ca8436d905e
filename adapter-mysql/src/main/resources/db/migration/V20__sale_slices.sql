-- A sale in slices across the cluster (ADR 109). Runs unchanged on MySQL 8 and MariaDB 10.11.
-- Same conventions as V1-V19: ids utf8mb4_bin, times DATETIME(3) holding UTC wall-clock time.

-- Fixed when the sale is created. The default makes every sale created before slices a sale of one slice, which is
-- what it has always been.
ALTER TABLE activity
    ADD COLUMN slices SMALLINT NOT NULL DEFAULT 1 COMMENT 'hash slots the sale is cut into; 1 is a sale as before slices',
    ADD CONSTRAINT ck_activity_slices CHECK (slices BETWEEN 1 AND 64);

-- Units of one SKU moving from one slice to another: the row is written before either slice moves a unit, and its id
-- is what both slices key their step by. Each state change is one conditional UPDATE ... WHERE id AND state, so of two
-- runners moving one transfer on only one wins. Rows are never deleted: a slice's allotment is its share plus what
-- done transfers brought, less what taken or done ones took.
-- The foreign key's check takes a shared lock on the item row for the length of the insert's own short transaction.
CREATE TABLE stock_transfer (
    id           BIGINT      NOT NULL AUTO_INCREMENT,
    activity_id  VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    sku_id       VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    from_slice   SMALLINT    NOT NULL COMMENT 'the slice that gives the units, from 0',
    to_slice     SMALLINT    NOT NULL COMMENT 'the slice that gets them, from 0',
    units        BIGINT      NOT NULL COMMENT 'asked for',
    state        VARCHAR(16) NOT NULL COMMENT 'REQUESTED, TAKEN or DONE',
    moved        BIGINT      NOT NULL DEFAULT 0 COMMENT 'what the source gave; 0 while REQUESTED',
    requested_at DATETIME(3) NOT NULL COMMENT 'UTC',
    updated_at   DATETIME(3) NOT NULL COMMENT 'UTC by the database clock, the last state change',
    PRIMARY KEY (id),
    -- The sweep: unfinished transfers, oldest first.
    INDEX ix_stock_transfer_unfinished (state, id),
    -- A sale's transfers and one SKU's, in order; also the index the foreign key needs.
    INDEX ix_stock_transfer_item (activity_id, sku_id, id),
    CONSTRAINT fk_stock_transfer_item FOREIGN KEY (activity_id, sku_id) REFERENCES activity_item (activity_id, sku_id),
    CONSTRAINT ck_stock_transfer_slices CHECK (from_slice BETWEEN 0 AND 63 AND to_slice BETWEEN 0 AND 63
        AND from_slice <> to_slice),
    CONSTRAINT ck_stock_transfer_units CHECK (units >= 1),
    CONSTRAINT ck_stock_transfer_state CHECK (state IN ('REQUESTED', 'TAKEN', 'DONE')),
    CONSTRAINT ck_stock_transfer_moved CHECK (moved BETWEEN 0 AND units AND (state <> 'REQUESTED' OR moved = 0))
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
