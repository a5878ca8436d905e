-- An operator's pause of a sale (ADR 79): the truth a warm-up or a rebuild of the sale loads into Redis.
ALTER TABLE activity ADD COLUMN paused BOOLEAN NOT NULL DEFAULT FALSE;
