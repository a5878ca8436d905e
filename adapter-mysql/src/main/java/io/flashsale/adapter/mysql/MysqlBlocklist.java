package io.flashsale.adapter.mysql;

import io.flashsale.application.blocklist.port.out.BlocklistPort;
import io.flashsale.domain.risk.BlockEntry;
import io.flashsale.domain.risk.BlockKind;
import io.flashsale.domain.risk.BlocklistChange;
import org.springframework.transaction.support.TransactionOperations;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * The blocklist in MySQL: {@code blocklist_entry} holds the list, {@code blocklist_change} audits it, both written in
 * one transaction, so a change is never without its audit row, nor an audit row without its change.
 */
public class MysqlBlocklist implements BlocklistPort {

    private final BlocklistDao dao;
    private final TransactionOperations transactions;

    MysqlBlocklist(BlocklistDao dao, TransactionOperations transactions) {
        this.dao = dao;
        this.transactions = transactions;
    }

    @Override
    public List<BlockEntry> entries() {
        return dao.selectEntries().stream().map(row -> new BlockEntry(BlockKind.valueOf(row.kind()), row.value(),
                row.reason(), row.operator(), row.at())).toList();
    }

    @Override
    public boolean add(BlockEntry entry) {
        Instant at = entry.createdAt().truncatedTo(ChronoUnit.MILLIS);
        return Boolean.TRUE.equals(transactions.execute(status -> {
            if (dao.insertEntry(new BlocklistRow(null, entry.kind().name(), entry.value(), entry.reason(),
                    entry.operator(), at)) != 1) {
                return false;
            }
            dao.insertChange(new BlocklistRow(BlocklistChange.Action.ADD.name(), entry.kind().name(), entry.value(),
                    entry.reason(), entry.operator(), at));
            return true;
        }));
    }

    @Override
    public boolean remove(BlockKind kind, String value, String operator, Instant at) {
        return Boolean.TRUE.equals(transactions.execute(status -> {
            if (dao.deleteEntry(kind.name(), value) != 1) {
                return false;
            }
            dao.insertChange(new BlocklistRow(BlocklistChange.Action.REMOVE.name(), kind.name(), value, null,
                    operator, at.truncatedTo(ChronoUnit.MILLIS)));
            return true;
        }));
    }

    @Override
    public List<BlocklistChange> changes() {
        return dao.selectChanges().stream().map(row -> new BlocklistChange(BlocklistChange.Action.valueOf(row.action()),
                BlockKind.valueOf(row.kind()), row.value(), row.reason(), row.operator(), row.at())).toList();
    }
}
