package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.OutboxEntryDecoder;
import io.flashsale.domain.activity.ActivityId;
import io.lettuce.core.Range;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.util.List;

/** What a sale's outbox holds, read as the tests count it: reservations, whatever entries they share (ADR 107). */
final class OutboxReservations {

    private OutboxReservations() {
    }

    /** The reservation ids of every entry, in the outbox's order. */
    static List<String> ids(RedisClusterCommands<String, String> redis, ActivityId activityId) {
        return redis.xrange(RedisKeys.outbox(activityId), Range.create("-", "+")).stream()
                .flatMap(entry -> OutboxEntryDecoder.reservationIds(entry.getBody()).stream()).toList();
    }
}
