package io.flashsale.application.blocklist.service;

import io.flashsale.application.blocklist.port.in.ManageBlocklistUseCase;
import io.flashsale.application.blocklist.port.out.BlocklistChangesPort;
import io.flashsale.application.blocklist.port.out.BlocklistPort;
import io.flashsale.domain.risk.BlockEntry;
import io.flashsale.domain.risk.BlockKind;
import io.flashsale.domain.risk.BlocklistChange;

import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * Operators' changes of the blocklist: written (and audited) in the database of record first, then announced, so an
 * instance that hears the notice reads the change. An announcement that is lost is made good by each instance's
 * periodic read.
 */
public class BlocklistService implements ManageBlocklistUseCase {

    private final BlocklistPort store;
    private final BlocklistChangesPort changes;
    private final Clock clock;

    public BlocklistService(BlocklistPort store, BlocklistChangesPort changes, Clock clock) {
        this.store = store;
        this.changes = changes;
        this.clock = clock;
    }

    @Override
    public Optional<BlockEntry> block(BlockKind kind, String value, String reason, String operator) {
        BlockEntry entry = new BlockEntry(kind, value, reason, operator, clock.instant());
        if (!store.add(entry)) {
            return Optional.empty();
        }
        changes.announce();
        return Optional.of(entry);
    }

    @Override
    public boolean unblock(BlockKind kind, String value, String operator) {
        boolean removed = store.remove(kind, BlockEntry.canonical(kind, value), operator, clock.instant());
        if (removed) {
            changes.announce();
        }
        return removed;
    }

    @Override
    public List<BlockEntry> entries() {
        return store.entries();
    }

    @Override
    public List<BlocklistChange> changes() {
        return store.changes();
    }
}
