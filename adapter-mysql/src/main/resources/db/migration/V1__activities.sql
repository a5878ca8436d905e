-- Sales and the SKUs they offer. Runs unchanged on MySQL 8 and MariaDB 10.11.
-- Ids are case-sensitive (utf8mb4_bin) like the Redis keys built from them.
-- Times are DATETIME(3) holding UTC wall-clock time, written and read by the adapter without any zone conversion.

CREATE TABLE activity (
    id                      VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    name                    VARCHAR(200) NOT NULL,
    starts_at               DATETIME(3)  NOT NULL COMMENT 'UTC',
    ends_at                 DATETIME(3)  NOT NULL COMMENT 'UTC',
    per_user_limit          INT          NOT NULL,
    payment_timeout_seconds BIGINT       NOT NULL,
    created_at              DATETIME(3)  NOT NULL COMMENT 'UTC',
    PRIMARY KEY (id),
    CONSTRAINT ck_activity_window CHECK (ends_at > starts_at),
    CONSTRAINT ck_activity_per_user_limit CHECK (per_user_limit >= 1),
    CONSTRAINT ck_activity_payment_timeout CHECK (payment_timeout_seconds >= 1)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE activity_item (
    activity_id    VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    sku_id         VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    item_index     INT    NOT NULL COMMENT 'position in the activity as created, from 0',
    stock          BIGINT NOT NULL,
    per_user_limit INT    NULL COMMENT 'NULL: the activity limit applies',
    segments       INT    NOT NULL,
    PRIMARY KEY (activity_id, sku_id),
    CONSTRAINT uk_activity_item_index UNIQUE (activity_id, item_index),
    CONSTRAINT fk_activity_item_activity FOREIGN KEY (activity_id) REFERENCES activity (id),
    CONSTRAINT ck_activity_item_stock CHECK (stock >= 0),
    CONSTRAINT ck_activity_item_per_user_limit CHECK (per_user_limit IS NULL OR per_user_limit >= 1),
    CONSTRAINT ck_activity_item_segments CHECK (segments >= 1)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
