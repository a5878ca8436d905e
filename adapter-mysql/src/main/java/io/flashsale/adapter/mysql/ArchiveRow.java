package io.flashsale.adapter.mysql;

import java.time.Instant;

/** An activity's archive mark; {@code archivedAt} is null while it is not archived. */
record ArchiveRow(String id, Instant archivedAt) {
}
