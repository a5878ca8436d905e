package io.flashsale.adapter.web;

import io.flashsale.domain.risk.BlockEntry;

/** One entry of the blocklist; {@code value} in its canonical form (an address as network/prefix). */
public record BlocklistEntryResponse(String kind, String value, String reason, String operator, String createdAt) {

    static BlocklistEntryResponse of(BlockEntry entry) {
        return new BlocklistEntryResponse(entry.kind().label(), entry.value(), entry.reason(), entry.operator(),
                entry.createdAt().toString());
    }
}
