package io.flashsale.load;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The backlog scenario's reads of the shop's database: orders by status, placement and expiry times. */
final class BacklogBooks {

    private static final String MICROS = "TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', %s)";

    private final String jdbcUrl;
    private final String username;
    private final String password;

    BacklogBooks(String jdbcUrl, String username, String password) {
        this.jdbcUrl = jdbcUrl;
        this.username = username;
        this.password = password;
    }

    Map<String, Long> statusCounts(String activityId) {
        Map<String, Long> counts = new HashMap<>();
        query("SELECT status, COUNT(*) FROM purchase_order WHERE activity_id = ? GROUP BY status", activityId,
                rows -> counts.put(rows.getString(1), rows.getLong(2)));
        return counts;
    }

    /** placed_at of every order that was ever ORDERED (epoch microseconds), whatever became of it since. */
    List<Long> placedAt(String activityId) {
        List<Long> placed = new ArrayList<>();
        query("SELECT " + MICROS.formatted("placed_at") + " FROM purchase_order WHERE activity_id = ?"
                + " AND ordered_at IS NOT NULL", activityId, rows -> placed.add(rows.getLong(1)));
        return placed;
    }

    /** Per expired order: {payment_due_at, expired_at}, epoch microseconds. */
    List<long[]> expiries(String activityId) {
        List<long[]> expiries = new ArrayList<>();
        query("SELECT " + MICROS.formatted("payment_due_at") + ", " + MICROS.formatted("expired_at")
                        + " FROM purchase_order WHERE activity_id = ? AND status = 'EXPIRED'", activityId,
                rows -> expiries.add(new long[] {rows.getLong(1), rows.getLong(2)}));
        return expiries;
    }

    /** The latest payment deadline of the sale's orders, epoch microseconds; 0 when there is none. */
    long lastDeadline(String activityId) {
        long[] last = {0};
        query("SELECT COALESCE(MAX(" + MICROS.formatted("payment_due_at") + "), 0) FROM purchase_order"
                + " WHERE activity_id = ?", activityId, rows -> last[0] = rows.getLong(1));
        return last[0];
    }

    /** Orders whose units the database gave back but Redis has not taken yet. */
    long restoresOwedToRedis(String activityId) {
        long[] owed = {0};
        query("SELECT COUNT(*) FROM purchase_order WHERE activity_id = ? AND hot_store_restore_due_at IS NOT NULL",
                activityId, rows -> owed[0] = rows.getLong(1));
        return owed[0];
    }

    long sold(String activityId) {
        long[] sold = {0};
        query("SELECT COALESCE(SUM(sold), 0) FROM activity_item WHERE activity_id = ?", activityId,
                rows -> sold[0] = rows.getLong(1));
        return sold[0];
    }

    /** MariaDB's server-wide counters that say where a drain's time went (other clients of the server count too). */
    static final List<String> SERVER_COUNTERS = List.of("Innodb_row_lock_waits", "Innodb_row_lock_time",
            "Innodb_os_log_fsyncs", "Innodb_data_fsyncs", "Com_commit", "Com_insert", "Com_update", "Com_select",
            "Questions");

    Map<String, Long> serverCounters() {
        Map<String, Long> counters = new HashMap<>();
        try (Connection connection = DriverManager.getConnection(jdbcUrl, username, password);
             PreparedStatement statement = connection.prepareStatement("SHOW GLOBAL STATUS");
             ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                if (SERVER_COUNTERS.contains(rows.getString(1))) {
                    counters.put(rows.getString(1), Long.parseLong(rows.getString(2)));
                }
            }
        } catch (SQLException | NumberFormatException e) {
            throw new IllegalStateException("cannot read the server's status counters", e);
        }
        return counters;
    }

    private interface RowConsumer {
        void accept(ResultSet rows) throws SQLException;
    }

    private void query(String sql, String activityId, RowConsumer consumer) {
        try (Connection connection = DriverManager.getConnection(jdbcUrl, username, password);
             PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, activityId);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    consumer.accept(rows);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the shop's database: " + sql, e);
        }
    }
}
