-- One runner per scheduled job across service instances (ShedLock's JDBC provider, see ADR 16). One row per job,
-- written only by ShedLock: an instance takes the job when lock_until has passed, by the database's clock
-- (UTC_TIMESTAMP(3)), so instances whose clocks disagree still never run a job at the same time.
CREATE TABLE job_lock (
    name       VARCHAR(64)  NOT NULL COMMENT 'the job, e.g. reconciliation',
    lock_until DATETIME(3)  NOT NULL COMMENT 'UTC; the job is free from then on',
    locked_at  DATETIME(3)  NOT NULL COMMENT 'UTC; when the holder took it',
    locked_by  VARCHAR(255) NOT NULL COMMENT 'host/pid/instance of the holder',
    PRIMARY KEY (name)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
