package io.flashsale.domain.risk;

import java.time.Instant;

/** One audited change of the blocklist: an entry added (with its reason) or removed, by whom and when. */
public record BlocklistChange(Action action, BlockKind kind, String value, String reason, String operator,
                              Instant at) {

    public enum Action {
        ADD, REMOVE
    }
}
