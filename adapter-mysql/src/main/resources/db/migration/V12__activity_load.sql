-- Issue 8, item 5 (ADR 30): a sale that was ever loaded into Redis may have reservations anywhere in the pipeline
-- (Redis, the outbox, Kafka, the dead-letter topic, orders) even when none is in MySQL yet. A warm-up of such a sale
-- that Redis no longer holds must never load the original totals; this row is how a warm-up knows, at the cost of one
-- primary-key read on an admin or scheduled path. Written before the first load, never removed.

CREATE TABLE activity_load (
    activity_id     VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    first_loaded_at DATETIME(3) NOT NULL COMMENT 'UTC, when a warm-up first loaded the activity into Redis',
    PRIMARY KEY (activity_id),
    CONSTRAINT fk_activity_load_activity FOREIGN KEY (activity_id) REFERENCES activity (id)
);
