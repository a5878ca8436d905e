-- After the sale: an ended activity whose reservations have all left the hot store is archived, and its Redis keys
-- are deleted. Orders and the buyers' purchases stay as they are; this column only notes when it happened.
-- The index serves both schedules: warm-up (not archived, ends_at > now, starts_at <= now + lead) and archive
-- (not archived, ends_at <= now); archived activities, the bulk of the table over time, sit apart under non-NULL keys.

ALTER TABLE activity
    ADD COLUMN archived_at DATETIME(3) NULL COMMENT 'UTC, when the activity left the hot store; NULL until archived',
    ADD CONSTRAINT ck_activity_archived_after_end CHECK (archived_at IS NULL OR archived_at >= ends_at),
    ADD INDEX ix_activity_unarchived_window (archived_at, ends_at, starts_at);
