package io.flashsale.benchmarks.mysql;

import io.flashsale.benchmarks.Take;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * 2. Optimistic locking: read stock and version without a lock, then {@code UPDATE ... WHERE version = ?}; a lost
 * race rolls back and tries again, at most {@link #MAX_TRIES} times (then {@link Take#GAVE_UP}). Every retry is
 * counted.
 */
public final class MysqlOptimisticStrategy extends MysqlStrategy {

    static final int MAX_TRIES = 32;

    private final LongAdder versionConflicts = new LongAdder();

    public MysqlOptimisticStrategy(MysqlServer server, int poolSize) {
        super(server, poolSize);
    }

    @Override
    public String name() {
        return "2 MySQL optimistic (version)";
    }

    @Override
    protected Take attempt(Connection connection, String sku, String buyer, int quantity, int limit)
            throws SQLException {
        ensurePurchaseRow(connection, sku, buyer);
        for (int tries = 0; tries < MAX_TRIES; tries++) {
            long available;
            long version;
            try (PreparedStatement read = connection.prepareStatement(
                    "SELECT total - sold, version FROM bench_stock WHERE sku = ?")) {
                read.setString(1, sku);
                try (ResultSet row = read.executeQuery()) {
                    row.next();
                    available = row.getLong(1);
                    version = row.getLong(2);
                }
            }
            // Ends the snapshot of the read, so the next try sees what the winner wrote.
            connection.commit();
            if (available < quantity) {
                return Take.SOLD_OUT;
            }
            if (!addWithinLimit(connection, sku, buyer, quantity, limit)) {
                return rollback(connection, Take.LIMIT);
            }
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE bench_stock SET sold = sold + ?, version = version + 1 WHERE sku = ? AND version = ?")) {
                update.setInt(1, quantity);
                update.setString(2, sku);
                update.setLong(3, version);
                if (update.executeUpdate() == 1) {
                    connection.commit();
                    return Take.TAKEN;
                }
            }
            connection.rollback();
            versionConflicts.increment();
        }
        return Take.GAVE_UP;
    }

    @Override
    public Map<String, Long> counters() {
        var counters = new HashMap<>(super.counters());
        counters.put("version retries", versionConflicts.sum());
        return counters;
    }
}
