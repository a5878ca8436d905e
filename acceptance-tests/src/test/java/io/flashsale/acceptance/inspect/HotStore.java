package io.flashsale.acceptance.inspect;

import io.flashsale.adapter.redis.RedisKeys;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Redis hot store as the checks read it: which reservations it accepted and in which status they are now, what
 * each buyer holds, and which keys of a sale it still keeps.
 */
public final class HotStore implements AutoCloseable {

    private static final String STATUS_SUFFIX = ":" + RedisKeys.RESERVATION_STATUS;

    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;

    public HotStore(String redisUri) {
        this.client = RedisClient.create(redisUri);
        this.connection = client.connect();
    }

    /** Reservation id to status (RESERVED, ORDERED, FAILED, ...) of every reservation the sale accepted. */
    public Map<String, String> reservationStatuses(String activityId) {
        Map<String, String> fields = connection.sync().hgetall(RedisKeys.reservations(new ActivityId(activityId)));
        Map<String, String> statuses = new HashMap<>();
        fields.forEach((field, value) -> {
            if (field.endsWith(STATUS_SUFFIX)) {
                statuses.put(field.substring(0, field.length() - STATUS_SUFFIX.length()), value);
            }
        });
        return statuses;
    }

    /** A SKU's counters as Redis holds them, read directly: also while the service is down. */
    public record Counters(long reserved, long sold) {
    }

    public Counters counters(String activityId, String skuId) {
        SkuId sku = new SkuId(skuId);
        var values = connection.sync().hmget(RedisKeys.stock(new ActivityId(activityId)),
                RedisKeys.stockField(sku, "reserved"), RedisKeys.stockField(sku, "sold"));
        return new Counters(Long.parseLong(values.get(0).getValueOrElse("0")),
                Long.parseLong(values.get(1).getValueOrElse("0")));
    }

    /** Units each buyer holds by SKU, keyed "buyer:sku"; a buyer holding nothing has no entry. */
    public Map<String, Long> holdings(String activityId) {
        Map<String, Long> holdings = new TreeMap<>();
        connection.sync().hgetall(RedisKeys.holdings(new ActivityId(activityId)))
                .forEach((field, units) -> holdings.put(field, Long.parseLong(units)));
        return holdings;
    }

    /** Every key of the sale, found by its hash tag, not by the names the adapter knows of (ids hold no glob). */
    public List<String> keysOf(String activityId) {
        ScanArgs pattern = ScanArgs.Builder.matches("fs:{" + activityId + "}:*").limit(1000);
        List<String> keys = new ArrayList<>();
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            KeyScanCursor<String> page = connection.sync().scan(cursor, pattern);
            keys.addAll(page.getKeys());
            cursor = page;
        } while (!cursor.isFinished());
        return keys;
    }

    public String serverVersion() {
        return connection.sync().info("server").lines()
                .filter(line -> line.startsWith("redis_version:"))
                .map(line -> line.substring("redis_version:".length()).trim())
                .findFirst().orElse("unknown");
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }
}
