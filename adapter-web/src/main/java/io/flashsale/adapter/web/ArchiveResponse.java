package io.flashsale.adapter.web;

import java.time.Instant;

/** The answer to an archive: when the sale left Redis (the first time, for a repeated call). */
public record ArchiveResponse(String activityId, Instant archivedAt) {
}
