package io.flashsale.adapter.redis;

import io.flashsale.application.shared.port.out.StoreUnavailableException;
import io.flashsale.application.slice.model.SlicePlacement;
import io.flashsale.application.slice.port.out.SlicePlacementPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * The placement of a sale's slices (ADR 109) as {@link RedisHotStore#slicePlacement()} reads it, on this run's Redis:
 * a single server is one master whatever the slices; on test-support's 3-master cluster the slices' tags reach as
 * many masters as there are slices, or all three, for sales {@link SliceTags} spreads, fewer for one it does not, and
 * the masters it names per slice are the nodes where Redis keeps the slices' keys (by Redis's own {@code CLUSTER
 * KEYSLOT} and {@code CLUSTER NODES}, and an {@code EXISTS} on that node alone).
 */
@Timeout(60)
class RedisSlicePlacementIT {

    private static final SaleSlices TWO = new SaleSlices(2);
    private static final SaleSlices THREE = new SaleSlices(3);
    private static final SaleSlices SIX = new SaleSlices(6);
    /** Sales whose 2, 3 and 6 slices SliceTags spreads over a 3-master cluster cut as redis-cli cuts it. */
    private static final List<ActivityId> SPREAD = IntStream.of(0, 1, 2, 3, 4, 5, 6, 8, 10, 12)
            .mapToObj(i -> new ActivityId("placement-" + i)).toList();

    private final String registry = SharedRedis.newRegistry();
    private final RedisHotStore store = RedisHotStore.connect(SharedRedis.settings(Duration.ofSeconds(10)), registry);
    private final SlicePlacementPort placement = store.slicePlacement();
    private final List<String> written = new ArrayList<>();

    @AfterEach
    void close() {
        written.forEach(key -> SharedRedis.commands().del(key));
        store.close();
    }

    // ---- a single server ----

    @Test
    void givenASingleServer_thenEverySliceIsOnItsOneMaster() {
        assumeThat(SharedRedis.onCluster()).as("a single server").isFalse();
        ActivityId sale = newSale();

        assertThat(placement.placementOf(sale, SaleSlices.ONE)).isEqualTo(new SlicePlacement(1, 1, 1));
        assertThat(placement.placementOf(sale, THREE)).isEqualTo(new SlicePlacement(3, 1, 1));
        assertThat(placement.placementOf(sale, new SaleSlices(SaleSlices.MAX)))
                .isEqualTo(new SlicePlacement(SaleSlices.MAX, 1, 1));
    }

    // ---- the 3-master cluster ----

    @Test
    void givenOneSlice_thenItSitsOnOneOfThreeMasters() {
        onCluster();
        for (int i = 0; i < 10; i++) {
            assertThat(placement.placementOf(newSale(), SaleSlices.ONE)).isEqualTo(new SlicePlacement(1, 1, 3));
        }
    }

    @Test
    void givenThreeSlices_thenTheySitOnThreeMastersOfThree() {
        onCluster();
        for (ActivityId sale : SPREAD) {
            assertThat(placement.placementOf(sale, THREE)).as(sale.value()).isEqualTo(new SlicePlacement(3, 3, 3));
        }
    }

    @Test
    void givenSixSlices_thenTheySitOnAllThreeMasters() {
        onCluster();
        for (ActivityId sale : SPREAD) {
            assertThat(placement.placementOf(sale, SIX)).as(sale.value()).isEqualTo(new SlicePlacement(6, 3, 3));
        }
        for (int i = 0; i < 10; i++) {
            ActivityId sale = newSale();
            assertThat(placement.placementOf(sale, SIX)).as(sale.value()).isEqualTo(new SlicePlacement(6, 3, 3));
        }
    }

    @Test
    void givenTwoSlices_thenTheySitOnTwoMastersOfThree() {
        onCluster();
        for (ActivityId sale : SPREAD) {
            assertThat(placement.placementOf(sale, TWO)).as(sale.value()).isEqualTo(new SlicePlacement(2, 2, 3));
        }
    }

    /**
     * Two slices take the two halves of the slots, and the middle master owns slots in both: a sale whose halves'
     * slots both fall to it (about one in nine) sits on one master, and the placement says so.
     */
    @Test
    void givenTwoSlicesWhoseSlotsTheMiddleMasterBothOwns_thenThePlacementSaysOneMaster() {
        onCluster();
        for (String id : List.of("placement-7", "placement-11")) {
            SlicePlacement twoOnOne = placement.placementOf(new ActivityId(id), TWO);

            assertThat(twoOnOne).as(id).isEqualTo(new SlicePlacement(2, 1, 3));
            assertThat(twoOnOne.spread()).isFalse();
        }
    }

    @Test
    void givenSalesInSlices_thenEachSlicesMasterIsTheNodeHoldingItsKeys() {
        onCluster();
        StatefulRedisClusterConnection<String, String> cluster = SharedRedisCluster.connection();
        RedisSlicePlacement perSlice = RedisSlicePlacement.cluster(cluster::getPartitions);
        List<ClusterNode> nodes = ClusterNode.parse(cluster.sync().clusterNodes());
        List<ClusterNode> masters = nodes.stream().filter(ClusterNode::servesSlots).toList();
        assertThat(masters).hasSize(3);
        // Random sales, and one whose slice 2 of 3 hashes to slot 10922: the last of the second range, where SliceTags'
        // cut and redis-cli's (and this cluster's) agree that the third master starts at 10923.
        List<ActivityId> sales = new ArrayList<>(IntStream.range(0, 5).mapToObj(i -> newSale()).toList());
        sales.add(new ActivityId("placement-2782"));

        for (ActivityId sale : sales) {
            for (SaleSlices slices : List.of(SaleSlices.ONE, TWO, THREE, SIX)) {
                List<String> holders = new ArrayList<>();
                for (int k = 0; k < slices.count(); k++) {
                    SaleSlice slice = new SaleSlice(sale, k, slices);
                    holders.add(holder(cluster, masters, slice));
                }
                String what = sale.value() + " in " + slices.count();

                assertThat(perSlice.mastersOf(sale, slices)).as(what).isEqualTo(holders);
                assertThat(placement.placementOf(sale, slices)).as(what).isEqualTo(new SlicePlacement(slices.count(),
                        Set.copyOf(holders).size(), masters.size()));
            }
        }
    }

    /** A cluster that does not answer: the placement fails as the store's other reads do, as an outage. */
    @Test
    void givenAClusterThatDoesNotAnswer_thenThePlacementIsAnOutage() throws IOException {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        try (RedisHotStore unreachable = RedisHotStore.connect(new RedisHotStore.Settings("unused", 0, null, 0,
                Duration.ofSeconds(1), List.of("127.0.0.1:" + closed)), registry)) {
            assertThatThrownBy(() -> unreachable.slicePlacement().placementOf(newSale(), THREE))
                    .isInstanceOf(StoreUnavailableException.class);
        }
    }

    /**
     * The master that serves the slot Redis hashes the slice's key to, by {@code CLUSTER KEYSLOT} and {@code CLUSTER
     * NODES}; the key, written through the cluster connection, is checked to be on that node alone.
     */
    private String holder(StatefulRedisClusterConnection<String, String> cluster, List<ClusterNode> masters,
                          SaleSlice slice) {
        String key = RedisKeys.meta(slice);
        written.add(key);
        cluster.sync().set(key, "placement");
        int slot = cluster.sync().clusterKeyslot(key).intValue();
        ClusterNode holder = masters.stream().filter(master -> master.serves(slot)).findFirst().orElseThrow();
        RedisClusterCommands<String, String> node = cluster.getConnection(holder.host(), holder.port()).sync();
        assertThat(node.clusterMyId()).isEqualTo(holder.id());
        assertThat(node.exists(key)).as("%s on %s", key, holder.id()).isEqualTo(1L);
        assertThat(node.clusterCountKeysInSlot(slot)).isPositive();
        return holder.id();
    }

    /** One line of {@code CLUSTER NODES}: id, address, flags and the slot ranges it serves. */
    private record ClusterNode(String id, String host, int port, Set<String> flags, List<int[]> slots) {

        static List<ClusterNode> parse(String clusterNodes) {
            return clusterNodes.lines().filter(line -> !line.isBlank()).map(ClusterNode::of).toList();
        }

        private static ClusterNode of(String line) {
            String[] fields = line.trim().split(" ");
            String address = fields[1].split("[@,]")[0];
            int colon = address.lastIndexOf(':');
            List<int[]> slots = new ArrayList<>();
            for (int i = 8; i < fields.length; i++) {
                if (fields[i].startsWith("[")) {
                    continue; // a slot migrating or importing
                }
                String[] range = fields[i].split("-");
                slots.add(new int[] {Integer.parseInt(range[0]), Integer.parseInt(range[range.length - 1])});
            }
            return new ClusterNode(fields[0], address.substring(0, colon),
                    Integer.parseInt(address.substring(colon + 1)),
                    Set.of(fields[2].split(",")), slots);
        }

        boolean servesSlots() {
            return flags.contains("master") && !slots.isEmpty();
        }

        boolean serves(int slot) {
            return slots.stream().anyMatch(range -> range[0] <= slot && slot <= range[1]);
        }
    }

    private static void onCluster() {
        assumeThat(SharedRedis.onCluster()).as("the 3-master cluster").isTrue();
    }

    private static ActivityId newSale() {
        return new ActivityId("sp-" + UUID.randomUUID().toString().substring(0, 12));
    }
}
