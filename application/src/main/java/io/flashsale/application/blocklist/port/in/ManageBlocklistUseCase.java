package io.flashsale.application.blocklist.port.in;

import io.flashsale.domain.risk.BlockEntry;
import io.flashsale.domain.risk.BlockKind;
import io.flashsale.domain.risk.BlocklistChange;

import java.util.List;
import java.util.Optional;

/** The operators' blocklist: buyers, client addresses (or blocks of them) and devices refused before the hot store. */
public interface ManageBlocklistUseCase {

    /**
     * Lists the value (its canonical form) and tells every instance; empty when it was listed already (nothing
     * changed).
     *
     * @throws io.flashsale.domain.shared.InvalidValueException when the value is not one of its kind
     */
    Optional<BlockEntry> block(BlockKind kind, String value, String reason, String operator);

    /** Takes the value off the list and tells every instance; false when it was not listed. */
    boolean unblock(BlockKind kind, String value, String operator);

    /** Every entry, oldest first, as the database of record holds it. */
    List<BlockEntry> entries();

    /** The audit of the list: every change, oldest first. */
    List<BlocklistChange> changes();
}
