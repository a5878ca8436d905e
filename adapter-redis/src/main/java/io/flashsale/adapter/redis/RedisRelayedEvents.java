package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.OutboxRedrive;
import io.flashsale.adapter.redis.internal.PagedReads;
import io.flashsale.adapter.redis.internal.ReadPace;
import io.flashsale.application.order.port.out.EventPosition;
import io.flashsale.application.reconciliation.port.out.RelayedEventsPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.slice.SaleSlice;
import io.lettuce.core.KeyValue;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The outbox as reconciliation and the rebuild see it (ADR 29): which events the relays have not acknowledged, the
 * broker positions the relay recorded on the records, and the re-drive of an event the broker has not seen. Reads go
 * in bounded pages ({@link PagedReads}). Thread-safe: many threads may share the one connection.
 * <p>
 * A sale in slices (ADR 109): each reservation is looked for in the slice its id names, in that slice's records and
 * outbox; the sale's outbox is drained when every slice's is.
 */
public final class RedisRelayedEvents implements RelayedEventsPort {

    private final RedisClusterCommands<String, String> redis;
    private final PagedReads pages;
    private final OutboxRedrive redrive;
    private final SliceCounts sliceCounts;

    public RedisRelayedEvents(StatefulRedisConnection<String, String> connection) {
        this(connection.sync(), ReadPace.NONE);
    }

    RedisRelayedEvents(RedisClusterCommands<String, String> redis, ReadPace pace) {
        this(redis, pace, new SliceCounts(redis));
    }

    /** @param sliceCounts the sales' slice counts, as the hot store's other adapters know them */
    RedisRelayedEvents(RedisClusterCommands<String, String> redis, ReadPace pace, SliceCounts sliceCounts) {
        this.redis = redis;
        this.sliceCounts = sliceCounts;
        this.pages = new PagedReads(redis, pace);
        this.redrive = new OutboxRedrive(redis);
    }

    @Override
    public boolean redrive(ReservationId reservationId, Optional<EventPosition> seenAt, Duration window) {
        return redrive.redrive(reservationId, seenAt.map(EventPosition::toString).orElse(""), window);
    }

    @Override
    public Map<ReservationId, EventPosition> positions(ActivityId activityId, Collection<ReservationId> ids) {
        Map<ReservationId, EventPosition> positions = new HashMap<>();
        ReservationsBySlice.group(ids).forEach((slice, all) -> {
            for (int from = 0; from < all.size(); from += PagedReads.PAGE) {
                List<ReservationId> page = all.subList(from, Math.min(all.size(), from + PagedReads.PAGE));
                String[] fields = page.stream().map(ReservationId::value).toArray(String[]::new);
                List<KeyValue<String, String>> values = redis.hmget(RedisKeys.reservations(slice), fields);
                for (int i = 0; i < page.size(); i++) {
                    EventPosition position = ReservationRecord.read(values.get(i).getValueOrElse(null))
                            .map(ReservationRecord::position).orElse(null);
                    if (position != null) {
                        positions.put(page.get(i), position);
                    }
                }
            }
        });
        return positions;
    }

    /** Only the outboxes of the slices the ids name are read. */
    @Override
    public Set<ReservationId> unrelayed(ActivityId activityId, Collection<ReservationId> ids) {
        Set<ReservationId> unrelayed = new HashSet<>();
        ReservationsBySlice.group(ids).forEach((slice, inSlice) -> {
            Set<String> waiting = pages.unacknowledged(RedisKeys.outbox(slice), RedisKeys.OUTBOX_GROUP);
            inSlice.stream().filter(id -> waiting.contains(id.value())).forEach(unrelayed::add);
        });
        return unrelayed;
    }

    @Override
    public boolean outboxDrained(ActivityId activityId) {
        for (SaleSlice slice : sliceCounts.slicesOf(activityId)) {
            if (!pages.drained(RedisKeys.outbox(slice), RedisKeys.OUTBOX_GROUP)) {
                return false;
            }
        }
        return true;
    }
}
