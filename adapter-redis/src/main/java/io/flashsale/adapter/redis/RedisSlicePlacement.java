package io.flashsale.adapter.redis;

import io.flashsale.application.slice.model.SlicePlacement;
import io.flashsale.application.slice.port.out.SlicePlacementPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Which masters hold a sale's slices (ADR 109). {@link SliceTags} spreads the slices over the slots as
 * {@code redis-cli --cluster create} cuts them; only the cluster's topology tells whether its masters own the slots
 * that way (a reshard, a cut of slices that is not a multiple of the masters), so it is read here rather than assumed.
 * The topology is the Lettuce client's partitions, which every connection of the client shares and its refresh keeps
 * current ({@link RedisHotStore#TOPOLOGY_REFRESH}): a placement sends Redis no command, only a client that never
 * reached the cluster loads them first. A single server holds every slice on its one master.
 */
final class RedisSlicePlacement implements SlicePlacementPort {

    /** The cluster's topology; null on a single server. */
    private final Supplier<Partitions> partitions;

    private RedisSlicePlacement(Supplier<Partitions> partitions) {
        this.partitions = partitions;
    }

    static RedisSlicePlacement standalone() {
        return new RedisSlicePlacement(null);
    }

    static RedisSlicePlacement cluster(Supplier<Partitions> partitions) {
        return new RedisSlicePlacement(partitions);
    }

    @Override
    public SlicePlacement placementOf(ActivityId activityId, SaleSlices slices) {
        if (partitions == null) {
            return new SlicePlacement(slices.count(), 1, 1);
        }
        List<RedisClusterNode> masters = masters();
        long holding = mastersOf(activityId, slices, masters).stream().distinct().count();
        return new SlicePlacement(slices.count(), (int) holding, masters.size());
    }

    /** The node id of the master serving each slice's slot, slice 0 first; a cluster only. */
    List<String> mastersOf(ActivityId activityId, SaleSlices slices) {
        return mastersOf(activityId, slices, masters());
    }

    /** The masters that serve slots, from one read view of the partitions (a refresh replaces the view whole). */
    private List<RedisClusterNode> masters() {
        List<RedisClusterNode> masters = new ArrayList<>();
        for (RedisClusterNode node : partitions.get()) {
            if (node.is(RedisClusterNode.NodeFlag.UPSTREAM) && !node.hasNoSlots()) {
                masters.add(node);
            }
        }
        return masters;
    }

    private static List<String> mastersOf(ActivityId activityId, SaleSlices slices, List<RedisClusterNode> masters) {
        List<String> ids = new ArrayList<>(slices.count());
        for (SaleSlice slice : slices.of(activityId)) {
            String tag = RedisKeys.tag(slice);
            int slot = SliceTags.slotOf(tag);
            ids.add(masters.stream().filter(master -> master.hasSlot(slot)).findFirst()
                    .orElseThrow(() -> new RedisConnectionException("no master serves slot " + slot + " of {" + tag
                            + "}"))
                    .getNodeId());
        }
        return ids;
    }
}
