package io.flashsale.adapter.redis.internal;

import io.flashsale.adapter.redis.RedisKeys;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.slice.SaleSlice;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.time.Duration;

/**
 * Appends a RESERVED reservation's event to its sale's outbox again ({@code reconcile_redrive.lua}): reconciliation's
 * re-drive of a lost event, and the relayed-events view's re-drive of one the broker has not seen within a window.
 */
public final class OutboxRedrive {

    /** Any position the reservation's record shows: the re-drive happens whatever the relay recorded. */
    public static final String ANY_POSITION = "*";

    private final RedisClusterCommands<String, String> redis;
    private final LuaScript script;

    public OutboxRedrive(RedisClusterCommands<String, String> redis) {
        this.redis = redis;
        this.script = LuaScript.load(redis, "reconcile_redrive");
    }

    /**
     * @param seenAt the position the caller saw the event at ({@link #ANY_POSITION}, or "" for none): the record must
     *               still show it
     * @param window how long after that the event may still be on its way (ZERO: none)
     * @return true when the event was appended
     */
    public boolean redrive(ReservationId reservationId, String seenAt, Duration window) {
        // The reservation's own slice (ADR 109): its record is there, and its event goes to that slice's outbox.
        SaleSlice slice = reservationId.slice();
        String[] keys = {RedisKeys.reservations(slice), RedisKeys.outbox(slice)};
        Long appended = script.run(redis, ScriptOutputType.INTEGER, keys, reservationId.value(), seenAt,
                Long.toString(window.toMillis()));
        return appended == 1L;
    }
}
