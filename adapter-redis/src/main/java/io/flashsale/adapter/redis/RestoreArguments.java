package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.ReservationLines;
import io.flashsale.application.order.port.out.PendingRestore;

import java.util.List;

/**
 * One order's arguments to {@code restore.lua} and {@code restore_batch.lua}: the id, the final status, and the order's
 * buyer, request and lines, which the hot store no longer keeps once the reservation was ordered (ADR 71).
 */
final class RestoreArguments {

    private RestoreArguments() {
    }

    static List<String> of(PendingRestore restore) {
        return List.of(restore.reservationId().value(), restore.finalStatus().name(), restore.buyerId().value(),
                restore.requestId().value(), ReservationLines.encode(restore.lines()));
    }
}
