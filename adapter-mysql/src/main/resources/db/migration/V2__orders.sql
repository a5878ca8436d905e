-- Reservations settled as orders. Runs unchanged on MySQL 8 and MariaDB 10.11.
-- Same conventions as V1: ids utf8mb4_bin, times DATETIME(3) holding UTC wall-clock time.
-- No foreign key from orders or purchases to activity_item: a refused order for an unknown SKU must still be
-- stored, and a purchase row checking its item would take a shared lock on the item row that the stock update
-- then upgrades, which deadlocks two buyers of one SKU.

ALTER TABLE activity_item
    ADD COLUMN sold BIGINT NOT NULL DEFAULT 0 COMMENT 'units in placed orders; stock - sold is still for sale',
    ADD CONSTRAINT ck_activity_item_sold CHECK (sold >= 0 AND sold <= stock);

-- One row per settled reservation; the reservation id (<activityId>.<token>) is the key, so a redelivery
-- can only find the order, never make a second one.
CREATE TABLE purchase_order (
    reservation_id VARCHAR(130) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    activity_id    VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    buyer_id       VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    request_id     VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    status         VARCHAR(16) NOT NULL COMMENT 'ORDERED, FAILED; later PAID, CANCELLED, EXPIRED',
    failure_reason VARCHAR(32) NULL COMMENT 'why the database refused it; set exactly when FAILED',
    reserved_at    DATETIME(3) NOT NULL COMMENT 'UTC, when the hot store accepted the reservation',
    placed_at      DATETIME(3) NOT NULL COMMENT 'UTC, when the order was settled',
    updated_at     DATETIME(3) NOT NULL COMMENT 'UTC, the last status change',
    PRIMARY KEY (reservation_id),
    INDEX ix_purchase_order_activity_status (activity_id, status),
    INDEX ix_purchase_order_activity_buyer (activity_id, buyer_id),
    CONSTRAINT ck_purchase_order_status CHECK (status IN ('ORDERED', 'PAID', 'CANCELLED', 'EXPIRED', 'FAILED')),
    CONSTRAINT ck_purchase_order_failure CHECK ((status = 'FAILED') = (failure_reason IS NOT NULL))
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE purchase_order_line (
    reservation_id VARCHAR(130) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    sku_id         VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    line_index     INT NOT NULL COMMENT 'position in the reservation, from 0',
    quantity       INT NOT NULL,
    PRIMARY KEY (reservation_id, sku_id),
    CONSTRAINT uk_purchase_order_line_index UNIQUE (reservation_id, line_index),
    CONSTRAINT fk_purchase_order_line_order FOREIGN KEY (reservation_id) REFERENCES purchase_order (reservation_id),
    CONSTRAINT ck_purchase_order_line_quantity CHECK (quantity >= 1)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- Units of a SKU one buyer holds in placed orders; the adapter only adds while the per-user limit allows.
CREATE TABLE buyer_purchase (
    activity_id VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    buyer_id    VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    sku_id      VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    quantity    BIGINT NOT NULL,
    PRIMARY KEY (activity_id, buyer_id, sku_id),
    CONSTRAINT ck_buyer_purchase_quantity CHECK (quantity >= 0)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- Every movement of sold units, at most one of each kind per reservation and SKU: the audit trail that
-- reconciliation sums. SALE adds to sold, RESTORE gives units back.
CREATE TABLE stock_flow (
    id             BIGINT NOT NULL AUTO_INCREMENT,
    activity_id    VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    sku_id         VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    reservation_id VARCHAR(130) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    kind           VARCHAR(16) NOT NULL,
    quantity       BIGINT NOT NULL,
    created_at     DATETIME(3) NOT NULL COMMENT 'UTC',
    PRIMARY KEY (id),
    CONSTRAINT uk_stock_flow_movement UNIQUE (reservation_id, sku_id, kind),
    INDEX ix_stock_flow_item (activity_id, sku_id),
    CONSTRAINT fk_stock_flow_order FOREIGN KEY (reservation_id) REFERENCES purchase_order (reservation_id),
    CONSTRAINT fk_stock_flow_item FOREIGN KEY (activity_id, sku_id) REFERENCES activity_item (activity_id, sku_id),
    CONSTRAINT ck_stock_flow_kind CHECK (kind IN ('SALE', 'RESTORE')),
    CONSTRAINT ck_stock_flow_quantity CHECK (quantity >= 1)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
