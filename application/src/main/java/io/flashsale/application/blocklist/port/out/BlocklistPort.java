package io.flashsale.application.blocklist.port.out;

import io.flashsale.domain.risk.BlockEntry;
import io.flashsale.domain.risk.BlockKind;
import io.flashsale.domain.risk.BlocklistChange;

import java.time.Instant;
import java.util.List;

/**
 * The blocklist in the database of record. Every change is audited in the same transaction as the change itself (who,
 * when, what, why), and the audit is append-only.
 */
public interface BlocklistPort {

    /** Every entry, oldest first. */
    List<BlockEntry> entries();

    /** Adds the entry and audits it; false (nothing changed, nothing audited) when its kind and value are listed. */
    boolean add(BlockEntry entry);

    /** Removes the entry of this kind and value and audits it; false when there is none. */
    boolean remove(BlockKind kind, String value, String operator, Instant at);

    /** The audit: every change, oldest first. */
    List<BlocklistChange> changes();
}
