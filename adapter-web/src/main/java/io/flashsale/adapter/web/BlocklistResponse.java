package io.flashsale.adapter.web;

import java.util.List;

/** The whole blocklist, oldest entry first. */
public record BlocklistResponse(List<BlocklistEntryResponse> entries) {
}
