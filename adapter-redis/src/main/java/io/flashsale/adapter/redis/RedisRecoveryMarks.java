package io.flashsale.adapter.redis;

import io.flashsale.application.reconciliation.port.out.PipelineMark;
import io.flashsale.application.reconciliation.port.out.RecoveryMarkPort;
import io.flashsale.domain.activity.ActivityId;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Where a lost sale's rebuild keeps the broker's end it waits for (ADR 30): one small hash per sale
 * ({@link RedisKeys#recovery}), beside the sale's other keys, so a rebuild that a later runner takes over finds it.
 */
public final class RedisRecoveryMarks implements RecoveryMarkPort {

    private final RedisClusterCommands<String, String> redis;

    public RedisRecoveryMarks(StatefulRedisConnection<String, String> connection) {
        this(connection.sync());
    }

    RedisRecoveryMarks(RedisClusterCommands<String, String> redis) {
        this.redis = redis;
    }

    @Override
    public Optional<PipelineMark> recoveryMark(ActivityId activityId) {
        Map<String, String> offsets = redis.hgetall(RedisKeys.recovery(activityId));
        if (offsets == null || offsets.isEmpty()) {
            return Optional.empty();
        }
        Map<Integer, Long> mark = new HashMap<>();
        offsets.forEach((partition, offset) -> mark.put(Integer.parseInt(partition), Long.parseLong(offset)));
        return Optional.of(new PipelineMark(mark));
    }

    /** A mark with no partitions (an empty topic) is kept as one field, so that it is still found as taken. */
    @Override
    public void keepRecoveryMark(ActivityId activityId, PipelineMark mark) {
        Map<String, String> fields = new HashMap<>();
        mark.offsets().forEach((partition, offset) -> fields.put(partition.toString(), offset.toString()));
        if (fields.isEmpty()) {
            fields.put("0", "0");
        }
        redis.hset(RedisKeys.recovery(activityId), fields);
    }

    @Override
    public void clearRecoveryMark(ActivityId activityId) {
        redis.del(RedisKeys.recovery(activityId));
    }
}
