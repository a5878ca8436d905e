package io.flashsale.adapter.web;

import io.flashsale.domain.risk.BlocklistChange;

import java.util.Locale;

/** One audited change of the blocklist. @param action {@code add} or {@code remove}; {@code reason} null for a removal */
public record BlocklistChangeResponse(String action, String kind, String value, String reason, String operator,
                                      String at) {

    static BlocklistChangeResponse of(BlocklistChange change) {
        return new BlocklistChangeResponse(change.action().name().toLowerCase(Locale.ROOT), change.kind().label(),
                change.value(), change.reason(), change.operator(), change.at().toString());
    }
}
