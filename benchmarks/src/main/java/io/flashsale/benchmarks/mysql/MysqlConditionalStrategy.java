package io.flashsale.benchmarks.mysql;

import io.flashsale.benchmarks.Take;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * 3. The conditional UPDATE {@code sold = sold + q WHERE total - sold >= q}, behind the buyer's limit-guarded
 * purchase row, in one transaction: the database checks and writes in one statement, no read beforehand.
 */
public final class MysqlConditionalStrategy extends MysqlStrategy {

    public MysqlConditionalStrategy(MysqlServer server, int poolSize) {
        super(server, poolSize);
    }

    @Override
    public String name() {
        return "3 MySQL conditional UPDATE";
    }

    @Override
    protected Take attempt(Connection connection, String sku, String buyer, int quantity, int limit)
            throws SQLException {
        ensurePurchaseRow(connection, sku, buyer);
        if (!addWithinLimit(connection, sku, buyer, quantity, limit)) {
            return rollback(connection, Take.LIMIT);
        }
        try (PreparedStatement update = connection.prepareStatement(
                "UPDATE bench_stock SET sold = sold + ? WHERE sku = ? AND total - sold >= ?")) {
            update.setInt(1, quantity);
            update.setString(2, sku);
            update.setInt(3, quantity);
            if (update.executeUpdate() == 0) {
                return rollback(connection, Take.SOLD_OUT);
            }
        }
        connection.commit();
        return Take.TAKEN;
    }
}
