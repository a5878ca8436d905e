package io.flashsale.adapter.web;

import java.util.List;

/** The blocklist's audit, oldest change first. */
public record BlocklistChangesResponse(List<BlocklistChangeResponse> changes) {
}
