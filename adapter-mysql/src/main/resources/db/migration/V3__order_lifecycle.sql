-- After the order: payment, cancellation, payment timeout. Runs unchanged on MySQL 8 and MariaDB 10.11.
-- Same conventions as V1/V2: times are DATETIME(3) holding UTC wall-clock time.
--
-- Every move out of ORDERED is one conditional UPDATE ... WHERE status = 'ORDERED': the one caller it changes a row
-- for wins, and only the winner gives stock back, in its transaction (sold, buyer_purchase, a RESTORE stock_flow row,
-- unique per reservation and SKU). The hot store's half of the restore follows the commit; until it is done,
-- hot_store_restore_due_at says when to try it, so a crash in between is repaired by the sweep.

ALTER TABLE purchase_order
    ADD COLUMN ordered_at DATETIME(3) NULL
        COMMENT 'UTC, when it became an order; NULL when it never did (FAILED, cancelled before it was ordered)',
    ADD COLUMN paid_at DATETIME(3) NULL COMMENT 'UTC; set exactly when PAID',
    ADD COLUMN cancelled_at DATETIME(3) NULL COMMENT 'UTC; set exactly when CANCELLED',
    ADD COLUMN expired_at DATETIME(3) NULL COMMENT 'UTC; set exactly when EXPIRED',
    ADD COLUMN payment_due_at DATETIME(3) NULL
        COMMENT 'UTC, ordered_at + the activity''s payment timeout when ordered; an ORDERED order expires after it',
    ADD COLUMN hot_store_restore_due_at DATETIME(3) NULL
        COMMENT 'UTC; set when the order gave its units back here and Redis still has to; NULL once Redis is done';

-- Orders of issue 3 were ORDERED when placed and owe the payment deadline their activity set.
UPDATE purchase_order SET ordered_at = placed_at WHERE status <> 'FAILED';
UPDATE purchase_order o
    JOIN activity a ON a.id = o.activity_id
SET o.payment_due_at = DATE_ADD(o.ordered_at, INTERVAL a.payment_timeout_seconds SECOND)
WHERE o.ordered_at IS NOT NULL;

ALTER TABLE purchase_order
    ADD CONSTRAINT ck_purchase_order_ordered CHECK (
        (status IN ('ORDERED', 'PAID', 'EXPIRED') AND ordered_at IS NOT NULL)
        OR (status = 'CANCELLED')
        OR (status = 'FAILED' AND ordered_at IS NULL)),
    ADD CONSTRAINT ck_purchase_order_paid CHECK ((status = 'PAID') = (paid_at IS NOT NULL)),
    ADD CONSTRAINT ck_purchase_order_cancelled CHECK ((status = 'CANCELLED') = (cancelled_at IS NOT NULL)),
    ADD CONSTRAINT ck_purchase_order_expired CHECK ((status = 'EXPIRED') = (expired_at IS NOT NULL)),
    -- The expiry scan: ORDERED orders by deadline, claimed with FOR UPDATE SKIP LOCKED.
    ADD INDEX ix_purchase_order_payment_due (status, payment_due_at),
    -- The repair sweep: only rows still owing Redis a restore carry a value.
    ADD INDEX ix_purchase_order_hot_store_restore (hot_store_restore_due_at);
