-- A second reservation of one request is an alias of the request's order (ADR 61, defect 12 of docs/reliability.md).
-- When a hot store that did not know a request made a second reservation for it, the pipeline refuses that one as
-- DUPLICATE_REQUEST and stores no order of it (ADR 32: one order per request); this row, written in the refusing
-- batch's transaction, says which reservation holds the request's order, so the id the buyer was answered with still
-- leads to it (GET, payment, cancellation). Written once per refused reservation: a second delivery finds its row.
-- No foreign key to purchase_order: the order may be written in the same multi-row statement batch, and orders are
-- never deleted.
CREATE TABLE reservation_alias (
    reservation_id       VARCHAR(130) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL
        COMMENT 'the refused reservation, as its buyer was told it',
    order_reservation_id VARCHAR(130) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL
        COMMENT 'the reservation whose order holds the same request',
    activity_id          VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    buyer_id             VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    created_at           DATETIME(3) NOT NULL COMMENT 'UTC, when the pipeline refused it',
    PRIMARY KEY (reservation_id),
    INDEX ix_reservation_alias_activity (activity_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
