package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.AcceptedRequestsFilter;
import io.flashsale.application.reservation.port.out.AcceptedRequestsPort;
import io.flashsale.application.reservation.port.out.AcceptedRequestsSnapshotPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.output.ByteArrayOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A sale's filter of accepted request keys ({@link RedisKeys#acceptedRequests}) in one {@code GET}. Its bytes are read
 * as they are: the shared connection's string codec would mangle a bitmap. A sale in slices (ADR 109) has a filter in
 * every slice, holding the keys of the buyers whose home it is: each is read once per read, and a key is looked for in
 * its buyer's home slice's.
 */
final class RedisAcceptedRequests implements AcceptedRequestsPort {

    private final RedisClusterCommands<String, String> redis;
    private final SliceCounts sliceCounts;

    RedisAcceptedRequests(RedisClusterCommands<String, String> redis) {
        this(redis, new SliceCounts(redis));
    }

    /** @param sliceCounts the sales' slice counts, as the hot store's other adapters know them */
    RedisAcceptedRequests(RedisClusterCommands<String, String> redis, SliceCounts sliceCounts) {
        this.redis = redis;
        this.sliceCounts = sliceCounts;
    }

    @Override
    public Optional<AcceptedRequestsSnapshotPort> read(ActivityId activityId) {
        List<SaleSlice> slices = sliceCounts.slicesOf(activityId);
        if (slices.size() == 1) {
            return filter(slices.getFirst()).map(AcceptedRequestsSnapshotPort.class::cast);
        }
        List<Optional<AcceptedRequestsFilter>> filters = new ArrayList<>(slices.size());
        slices.forEach(slice -> filters.add(filter(slice)));
        if (filters.stream().allMatch(Optional::isEmpty)) {
            return Optional.empty();
        }
        return Optional.of(new BySlice(slices.getFirst().slices(), filters));
    }

    private Optional<AcceptedRequestsFilter> filter(SaleSlice slice) {
        byte[] value = redis.dispatch(CommandType.GET, new ByteArrayOutput<>(StringCodec.UTF8),
                new CommandArgs<>(StringCodec.UTF8).addKey(RedisKeys.acceptedRequests(slice)));
        return AcceptedRequestsFilter.of(value);
    }

    /**
     * The slices' filters as read, slice 0 first: a buyer's keys are in their home slice's. A slice without a usable
     * filter (not loaded, being rebuilt) knows nothing, so its buyers' keys may all be held.
     */
    private record BySlice(SaleSlices slices, List<Optional<AcceptedRequestsFilter>> filters)
            implements AcceptedRequestsSnapshotPort {

        @Override
        public boolean mayHold(BuyerId buyerId, RequestId requestId) {
            return filters.get(slices.homeOf(buyerId)).map(filter -> filter.mayHold(buyerId, requestId))
                    .orElse(true);
        }
    }
}
