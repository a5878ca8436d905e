package io.flashsale.adapter.mysql;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.ReservationId;
import org.springframework.jdbc.core.JdbcTemplate;

import javax.sql.DataSource;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** What the order tables of one activity hold, read with plain SQL so the tests do not trust the adapter's reads. */
final class Books {

    private final JdbcTemplate jdbc;

    Books(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
    }

    /** "sku sold" per item, in SKU order. */
    List<String> sold(ActivityId sale) {
        return jdbc.queryForList("SELECT CONCAT_WS(' ', sku_id, sold) FROM activity_item WHERE activity_id = ? ORDER BY sku_id",
                String.class, sale.value());
    }

    /** Units held per "buyer sku"; rows with 0 units are left out. */
    Map<String, Long> purchases(ActivityId sale) {
        Map<String, Long> purchases = new HashMap<>();
        jdbc.query("SELECT buyer_id, sku_id, quantity FROM buyer_purchase WHERE activity_id = ? AND quantity > 0",
                row -> {
                    purchases.put(row.getString("buyer_id") + " " + row.getString("sku_id"), row.getLong("quantity"));
                }, sale.value());
        return purchases;
    }

    /** "sku kind quantity" of one reservation's stock flows. */
    List<String> flows(ReservationId id) {
        return jdbc.queryForList("""
                SELECT CONCAT_WS(' ', sku_id, kind, quantity) FROM stock_flow
                WHERE reservation_id = ? ORDER BY sku_id, kind""", String.class, id.value());
    }

    long restoreFlows(ActivityId sale) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM stock_flow WHERE activity_id = ? AND kind = 'RESTORE'",
                Long.class, sale.value());
    }

    String status(ReservationId id) {
        return jdbc.queryForObject("SELECT status FROM purchase_order WHERE reservation_id = ?", String.class, id.value());
    }

    /** Orders of the activity per status, as "STATUS count" in status order. */
    List<String> statuses(ActivityId sale) {
        return jdbc.queryForList("""
                SELECT CONCAT_WS(' ', status, COUNT(*)) FROM purchase_order WHERE activity_id = ?
                GROUP BY status ORDER BY status""", String.class, sale.value());
    }

    /** The order's time columns, as UTC instants or null. */
    Map<String, Instant> times(ReservationId id) {
        return jdbc.queryForObject("""
                SELECT ordered_at, paid_at, cancelled_at, expired_at, payment_due_at, hot_store_restore_due_at,
                       updated_at
                FROM purchase_order WHERE reservation_id = ?""", (row, n) -> {
            Map<String, Instant> times = new HashMap<>();
            for (String column : List.of("ordered_at", "paid_at", "cancelled_at", "expired_at", "payment_due_at",
                    "hot_store_restore_due_at", "updated_at")) {
                LocalDateTime value = row.getObject(column, LocalDateTime.class);
                times.put(column, value == null ? null : value.toInstant(ZoneOffset.UTC));
            }
            return times;
        }, id.value());
    }

    Instant restoreDueAt(ReservationId id) {
        return times(id).get("hot_store_restore_due_at");
    }

    JdbcTemplate jdbc() {
        return jdbc;
    }
}
