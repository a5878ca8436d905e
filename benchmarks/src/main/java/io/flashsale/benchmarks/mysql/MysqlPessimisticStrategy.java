package io.flashsale.benchmarks.mysql;

import io.flashsale.benchmarks.Take;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** 1. {@code SELECT ... FOR UPDATE} on the stock row, check, then UPDATE: every attempt queues on the hot row. */
public final class MysqlPessimisticStrategy extends MysqlStrategy {

    public MysqlPessimisticStrategy(MysqlServer server, int poolSize) {
        super(server, poolSize);
    }

    @Override
    public String name() {
        return "1 MySQL pessimistic (FOR UPDATE)";
    }

    @Override
    protected Take attempt(Connection connection, String sku, String buyer, int quantity, int limit)
            throws SQLException {
        long available;
        try (PreparedStatement lock = connection.prepareStatement(
                "SELECT total - sold FROM bench_stock WHERE sku = ? FOR UPDATE")) {
            lock.setString(1, sku);
            try (ResultSet row = lock.executeQuery()) {
                row.next();
                available = row.getLong(1);
            }
        }
        if (available < quantity) {
            return rollback(connection, Take.SOLD_OUT);
        }
        // Under the stock row's lock every attempt on this SKU is serialized, the buyer's row included.
        long held = 0;
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT units FROM bench_purchase WHERE buyer = ? AND sku = ? FOR UPDATE")) {
            select.setString(1, buyer);
            select.setString(2, sku);
            try (ResultSet row = select.executeQuery()) {
                if (row.next()) {
                    held = row.getLong(1);
                }
            }
        }
        if (held + quantity > limit) {
            return rollback(connection, Take.LIMIT);
        }
        try (PreparedStatement update = connection.prepareStatement(
                "UPDATE bench_stock SET sold = sold + ? WHERE sku = ?");
             PreparedStatement purchase = connection.prepareStatement(
                     "INSERT INTO bench_purchase (buyer, sku, units) VALUES (?, ?, ?)"
                             + " ON DUPLICATE KEY UPDATE units = units + VALUES(units)")) {
            update.setInt(1, quantity);
            update.setString(2, sku);
            update.executeUpdate();
            purchase.setString(1, buyer);
            purchase.setString(2, sku);
            purchase.setInt(3, quantity);
            purchase.executeUpdate();
        }
        connection.commit();
        return Take.TAKEN;
    }
}
