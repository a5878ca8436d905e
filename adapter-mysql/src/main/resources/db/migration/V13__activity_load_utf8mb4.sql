-- V12 named its column's character set but not the table's, so activity_load took the server's default: latin1 on a
-- server left at MariaDB's own defaults (the demo mode's embedded MariaDB 10.11). Every table is utf8mb4 like the
-- others; the column keeps its utf8mb4_bin.
ALTER TABLE activity_load DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
