-- The risk control's blocklist (ADR 81): buyers, client addresses or blocks of them (CIDR, canonical network/prefix)
-- and device ids refused before the hot store. Every instance holds the whole list in memory and reads it again when
-- a change is announced and periodically. Runs unchanged on MySQL 8 and MariaDB 10.11.
CREATE TABLE blocklist_entry (
    kind        VARCHAR(8) NOT NULL COMMENT 'BUYER, ADDRESS or DEVICE',
    entry_value VARCHAR(128) CHARACTER SET ascii COLLATE ascii_bin NOT NULL
        COMMENT 'the buyer id, the address block as network/prefix, or the device id',
    reason      VARCHAR(200) NOT NULL,
    operator    VARCHAR(64) NOT NULL COMMENT 'who added it (the admin call''s X-Operator)',
    created_at  DATETIME(3) NOT NULL COMMENT 'UTC',
    PRIMARY KEY (kind, entry_value),
    CONSTRAINT ck_blocklist_entry_kind CHECK (kind IN ('BUYER', 'ADDRESS', 'DEVICE'))
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- The audit of every change of the list, in the transaction of the change: append-only, as stock_adjustment.
CREATE TABLE blocklist_change (
    id          BIGINT NOT NULL AUTO_INCREMENT,
    action      VARCHAR(8) NOT NULL COMMENT 'ADD or REMOVE',
    kind        VARCHAR(8) NOT NULL,
    entry_value VARCHAR(128) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    reason      VARCHAR(200) NULL COMMENT 'the entry''s reason when added; NULL for a removal',
    operator    VARCHAR(64) NOT NULL,
    changed_at  DATETIME(3) NOT NULL COMMENT 'UTC',
    PRIMARY KEY (id),
    INDEX ix_blocklist_change_entry (kind, entry_value),
    CONSTRAINT ck_blocklist_change_action CHECK (action IN ('ADD', 'REMOVE'))
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
