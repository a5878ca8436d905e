package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.AcceptedRequestsFilter;
import io.flashsale.application.reservation.port.out.AcceptedRequestsPort;
import io.flashsale.application.reservation.port.out.AcceptedRequestsSnapshotPort;
import io.flashsale.domain.activity.ActivityId;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.output.ByteArrayOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;

import java.util.Optional;

/**
 * A sale's filter of accepted request keys ({@link RedisKeys#acceptedRequests}) in one {@code GET}. Its bytes are read
 * as they are: the shared connection's string codec would mangle a bitmap.
 */
final class RedisAcceptedRequests implements AcceptedRequestsPort {

    private final RedisClusterCommands<String, String> redis;

    RedisAcceptedRequests(RedisClusterCommands<String, String> redis) {
        this.redis = redis;
    }

    @Override
    public Optional<AcceptedRequestsSnapshotPort> read(ActivityId activityId) {
        byte[] value = redis.dispatch(CommandType.GET, new ByteArrayOutput<>(StringCodec.UTF8),
                new CommandArgs<>(StringCodec.UTF8).addKey(RedisKeys.acceptedRequests(activityId)));
        return AcceptedRequestsFilter.of(value).map(AcceptedRequestsSnapshotPort.class::cast);
    }
}
