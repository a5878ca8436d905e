package io.flashsale.chaos.check;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What MySQL, the truth, holds for one sale, read over plain JDBC straight to the server (never the proxy). */
public final class Books {

    public record Item(long stock, long sold) {
    }

    public record Order(String reservationId, String buyerId, String requestId, String status, String failureReason) {

        public boolean holdsStock() {
            return "ORDERED".equals(status) || "PAID".equals(status);
        }
    }

    public record Line(String reservationId, String skuId, long quantity) {
    }

    /** One row of stock_flow: SALE or RESTORE of one SKU for one reservation. */
    public record Flow(String reservationId, String skuId, String kind, long quantity) {
    }

    public record Purchase(String buyerId, String skuId, long quantity) {
    }

    /**
     * @param aliases {@code reservation_alias}: a reservation the pipeline refused as its request's duplicate, to the
     *                reservation whose order holds the request (ADR 61)
     */
    public record Snapshot(Map<String, Item> items, List<Order> orders, List<Line> lines, List<Flow> flows,
                           List<Purchase> purchases, Map<String, String> aliases) {
    }

    private final String url;
    private final String username;
    private final String password;

    public Books(String url, String username, String password) {
        this.url = url;
        this.username = username;
        this.password = password;
    }

    public Snapshot read(String saleId) {
        try (Connection connection = DriverManager.getConnection(url, username, password)) {
            Map<String, Item> items = new LinkedHashMap<>();
            query(connection, "SELECT sku_id, stock, sold FROM activity_item WHERE activity_id = ? ORDER BY sku_id",
                    saleId, row -> items.put(row.getString(1), new Item(row.getLong(2), row.getLong(3))));
            List<Order> orders = new ArrayList<>();
            query(connection, "SELECT reservation_id, buyer_id, request_id, status, failure_reason FROM purchase_order"
                    + " WHERE activity_id = ?", saleId, row -> orders.add(new Order(row.getString(1),
                    row.getString(2), row.getString(3), row.getString(4), row.getString(5))));
            List<Line> lines = new ArrayList<>();
            query(connection, "SELECT l.reservation_id, l.sku_id, l.quantity FROM purchase_order_line l"
                    + " JOIN purchase_order o ON o.reservation_id = l.reservation_id WHERE o.activity_id = ?", saleId,
                    row -> lines.add(new Line(row.getString(1), row.getString(2), row.getLong(3))));
            List<Flow> flows = new ArrayList<>();
            query(connection, "SELECT reservation_id, sku_id, kind, quantity FROM stock_flow WHERE activity_id = ?",
                    saleId, row -> flows.add(new Flow(row.getString(1), row.getString(2), row.getString(3),
                            row.getLong(4))));
            List<Purchase> purchases = new ArrayList<>();
            query(connection, "SELECT buyer_id, sku_id, quantity FROM buyer_purchase WHERE activity_id = ?", saleId,
                    row -> purchases.add(new Purchase(row.getString(1), row.getString(2), row.getLong(3))));
            Map<String, String> aliases = new LinkedHashMap<>();
            query(connection, "SELECT reservation_id, order_reservation_id FROM reservation_alias WHERE activity_id = ?",
                    saleId, row -> aliases.put(row.getString(1), row.getString(2)));
            return new Snapshot(items, orders, lines, flows, purchases, aliases);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the books of " + saleId, e);
        }
    }

    /**
     * Orders of the sale that gave their units back in MySQL and still owe Redis that restore
     * ({@code hot_store_restore_due_at} set: the restore sweep retries it). Until none does, Redis withholds their
     * units by design, and the ledgers cannot agree yet.
     */
    public long restoresOwed(String saleId) {
        try (Connection connection = DriverManager.getConnection(url, username, password)) {
            long[] owed = new long[1];
            query(connection, "SELECT COUNT(*) FROM purchase_order WHERE activity_id = ?"
                    + " AND hot_store_restore_due_at IS NOT NULL", saleId, row -> owed[0] = row.getLong(1));
            return owed[0];
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the restores owed of " + saleId, e);
        }
    }

    private interface RowReader {
        void read(ResultSet row) throws SQLException;
    }

    private static void query(Connection connection, String sql, String saleId, RowReader reader) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, saleId);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    reader.read(rows);
                }
            }
        }
    }
}
