-- Payments confirmed by the payment provider (ADR 72). Runs unchanged on MySQL 8 and MariaDB 10.11.
-- The reference goes on the order it paid, unique: of two concurrent deliveries of one payment only one conditional
-- ORDERED -> PAID can change the row, and one payment can never pay two orders. Buyer-confirmed payments (when
-- flashsale.payment.buyer-confirms is on) have none.
ALTER TABLE purchase_order
    ADD COLUMN payment_reference VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL
        COMMENT 'the provider''s id of the payment that paid it; NULL unless paid through a notification',
    ADD COLUMN provider_paid_at DATETIME(3) NULL
        COMMENT 'UTC, when the provider says it took the payment (paid_at is when the notification arrived)',
    ADD CONSTRAINT uk_purchase_order_payment_reference UNIQUE (payment_reference),
    ADD CONSTRAINT ck_purchase_order_payment_reference CHECK (payment_reference IS NULL OR status = 'PAID');

-- Payments that paid nothing and are owed back: a second payment of a paid order (or a reference that already paid
-- another one), or a payment of an order past its deadline, expired, cancelled or failed. One row per payment
-- reference; a repeated delivery counts.
CREATE TABLE payment_conflicts (
    payment_reference VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    reservation_id    VARCHAR(130) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    reason            VARCHAR(16) NOT NULL COMMENT 'CONFLICT or NOT_PAYABLE',
    order_status      VARCHAR(16) NOT NULL COMMENT 'the reservation''s status when the notification arrived',
    provider_paid_at  DATETIME(3) NOT NULL COMMENT 'UTC, as the provider says',
    first_received_at DATETIME(3) NOT NULL COMMENT 'UTC',
    last_received_at  DATETIME(3) NOT NULL COMMENT 'UTC',
    deliveries        INT NOT NULL DEFAULT 1,
    PRIMARY KEY (payment_reference),
    INDEX ix_payment_conflicts_reservation (reservation_id),
    CONSTRAINT ck_payment_conflicts_reason CHECK (reason IN ('CONFLICT', 'NOT_PAYABLE')),
    CONSTRAINT ck_payment_conflicts_deliveries CHECK (deliveries >= 1)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
