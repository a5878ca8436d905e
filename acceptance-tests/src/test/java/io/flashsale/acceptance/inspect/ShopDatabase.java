package io.flashsale.acceptance.inspect;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The shop's database of record as the checks read it, over plain JDBC: orders, sold units and stock movements of
 * one sale. Each call opens its own connection, so a check never sees a stale snapshot.
 */
public final class ShopDatabase {

    private static final String ORDERS = """
            SELECT o.reservation_id, o.buyer_id, o.status, o.failure_reason, o.ordered_at IS NOT NULL AS ever_ordered,
                   COALESCE(SUM(l.quantity), 0) AS units, COUNT(l.sku_id) AS line_count
            FROM purchase_order o LEFT JOIN purchase_order_line l ON l.reservation_id = o.reservation_id
            WHERE o.activity_id = ?
            GROUP BY o.reservation_id, o.buyer_id, o.status, o.failure_reason, o.ordered_at""";
    private static final String ITEM = "SELECT stock, sold FROM activity_item WHERE activity_id = ? AND sku_id = ?";
    private static final String MOVEMENTS = """
            SELECT COALESCE(SUM(CASE kind WHEN 'SALE' THEN quantity ELSE 0 END), 0) AS sold,
                   COALESCE(SUM(CASE kind WHEN 'RESTORE' THEN quantity ELSE 0 END), 0) AS restored,
                   COUNT(*) AS movement_count
            FROM stock_flow WHERE activity_id = ? AND sku_id = ?""";
    private static final String MOVEMENTS_OF_RESERVATION = """
            SELECT COALESCE(SUM(CASE kind WHEN 'SALE' THEN quantity ELSE 0 END), 0) AS sold,
                   COALESCE(SUM(CASE kind WHEN 'RESTORE' THEN quantity ELSE 0 END), 0) AS restored,
                   COUNT(*) AS movement_count
            FROM stock_flow WHERE reservation_id = ?""";
    private static final String PURCHASES = """
            SELECT buyer_id, sku_id, quantity FROM buyer_purchase WHERE activity_id = ? AND quantity > 0""";
    private static final String SET_STOCK = "UPDATE activity_item SET stock = ? WHERE activity_id = ? AND sku_id = ?";
    // Server-side latency of the pipeline: from the hot store's acceptance to the order's commit, both stamped in UTC.
    private static final String PLACEMENTS = """
            SELECT TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', reserved_at) AS reserved_micros,
                   TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', placed_at) AS placed_micros
            FROM purchase_order WHERE activity_id = ? AND status = 'ORDERED'""";

    private final String jdbcUrl;
    private final String username;
    private final String password;

    public ShopDatabase(String jdbcUrl, String username, String password) {
        this.jdbcUrl = jdbcUrl;
        this.username = username;
        this.password = password;
    }

    /**
     * One settled reservation: its status, why it failed (or null), whether it ever became an order (a reservation
     * cancelled before that never did) and the units its lines hold.
     */
    public record OrderRecord(String reservationId, String buyerId, String status, String failureReason,
                              boolean everOrdered, long units, int lineCount) {

        public boolean isOrdered() {
            return "ORDERED".equals(status);
        }

        /** Ordered, paid or not yet: its units count as sold. */
        public boolean holdsStock() {
            return "ORDERED".equals(status) || "PAID".equals(status);
        }

        public boolean isFailed() {
            return "FAILED".equals(status);
        }
    }

    /** A SKU as the books hold it: the units for sale and the units in placed orders. */
    public record ItemRecord(long stock, long sold) {
    }

    /** The stock_flow rows of one SKU, summed by kind. */
    public record StockMovements(long sold, long restored, long movementCount) {

        public long netSold() {
            return sold - restored;
        }
    }

    /** One placed order's timing: when the hot store accepted it and when the order was placed, epoch microseconds. */
    public record Placement(long reservedAtEpochMicros, long placedAtEpochMicros) {

        public long latencyMicros() {
            return placedAtEpochMicros - reservedAtEpochMicros;
        }
    }

    public List<OrderRecord> orders(String activityId) {
        return query(ORDERS, List.of(activityId), rows -> new OrderRecord(rows.getString("reservation_id"),
                rows.getString("buyer_id"), rows.getString("status"), rows.getString("failure_reason"),
                rows.getBoolean("ever_ordered"), rows.getLong("units"), rows.getInt("line_count")));
    }

    /** The books' record of one reservation of the sale, if the order pipeline has written one. */
    public Optional<OrderRecord> order(String activityId, String reservationId) {
        return orders(activityId).stream().filter(order -> order.reservationId().equals(reservationId)).findFirst();
    }

    public long orderCount(String activityId) {
        return query("SELECT COUNT(*) FROM purchase_order WHERE activity_id = ?", List.of(activityId),
                rows -> rows.getLong(1)).getFirst();
    }

    public ItemRecord item(String activityId, String skuId) {
        List<ItemRecord> items = query(ITEM, List.of(activityId, skuId),
                rows -> new ItemRecord(rows.getLong("stock"), rows.getLong("sold")));
        if (items.isEmpty()) {
            throw new AssertionError("the shop's database has no SKU " + skuId + " in sale " + activityId);
        }
        return items.getFirst();
    }

    public StockMovements movements(String activityId, String skuId) {
        return query(MOVEMENTS, List.of(activityId, skuId), rows -> new StockMovements(rows.getLong("sold"),
                rows.getLong("restored"), rows.getLong("movement_count"))).getFirst();
    }

    /** The stock_flow rows one reservation caused, over all its SKUs. */
    public StockMovements movementsOf(String reservationId) {
        return query(MOVEMENTS_OF_RESERVATION, List.of(reservationId), rows -> new StockMovements(rows.getLong("sold"),
                rows.getLong("restored"), rows.getLong("movement_count"))).getFirst();
    }

    /** Units each buyer holds by SKU in placed orders, keyed "buyer:sku" as the hot store keys its holdings. */
    public Map<String, Long> purchases(String activityId) {
        Map<String, Long> purchases = new TreeMap<>();
        query(PURCHASES, List.of(activityId), rows -> Map.entry(
                rows.getString("buyer_id") + ":" + rows.getString("sku_id"), rows.getLong("quantity")))
                .forEach(purchase -> purchases.put(purchase.getKey(), purchase.getValue()));
        return purchases;
    }

    public List<Placement> placements(String activityId) {
        return query(PLACEMENTS, List.of(activityId),
                rows -> new Placement(rows.getLong("reserved_micros"), rows.getLong("placed_micros")));
    }

    /** The references of a reservation's payments that paid nothing and are owed back (payment_conflicts). */
    public List<String> paymentsOwedBack(String reservationId) {
        return query("SELECT payment_reference FROM payment_conflicts WHERE reservation_id = ?", List.of(reservationId),
                rows -> rows.getString(1));
    }

    /** Changes the books behind the hot store's back: the way a test makes the two disagree. */
    public void setStock(String activityId, String skuId, long units) {
        try (Connection connection = connect();
             PreparedStatement update = connection.prepareStatement(SET_STOCK)) {
            update.setLong(1, units);
            update.setString(2, activityId);
            update.setString(3, skuId);
            if (update.executeUpdate() != 1) {
                throw new AssertionError("no SKU " + skuId + " in sale " + activityId + " to set the stock of");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot set the stock of " + skuId + " in " + activityId, e);
        }
    }

    public String serverVersion() {
        return query("SELECT VERSION()", List.of(), rows -> rows.getString(1)).getFirst();
    }

    private interface RowReader<T> {
        T read(ResultSet rows) throws SQLException;
    }

    private <T> List<T> query(String sql, List<String> parameters, RowReader<T> reader) {
        try (Connection connection = connect();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.size(); i++) {
                statement.setString(i + 1, parameters.get(i));
            }
            try (ResultSet rows = statement.executeQuery()) {
                List<T> result = new ArrayList<>();
                while (rows.next()) {
                    result.add(reader.read(rows));
                }
                return result;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the shop's database: " + sql.lines().findFirst().orElse(sql), e);
        }
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl, username, password);
    }
}
