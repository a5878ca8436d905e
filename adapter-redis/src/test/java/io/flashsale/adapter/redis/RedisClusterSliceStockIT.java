package io.flashsale.adapter.redis;

import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import io.flashsale.domain.stock.StockLedger;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A sale of three slices on test-support's 3-master Redis Cluster (its masters own a third of the slots each, as
 * {@code redis-cli --cluster create} makes them): the slices' tags land on three distinct masters, Redis hashes them to
 * the slots the adapter computes, and a transfer takes on one master and credits on another.
 */
@Timeout(60)
class RedisClusterSliceStockIT {

    private static final SkuId SKU = new SkuId("unit");
    private static final SaleSlices THREE = new SaleSlices(3);

    private final StatefulRedisClusterConnection<String, String> cluster = SharedRedisCluster.connection();
    private final SliceFixture fixture = new SliceFixture(cluster.sync());
    private final RedisSliceStock port = new RedisSliceStock(cluster.sync(), activityId -> { });
    private final Activity sale = new Activity(new ActivityId("cs-" + UUID.randomUUID().toString().substring(0, 12)),
            "cluster slices", Instant.now().minusSeconds(60), Instant.now().plus(Duration.ofHours(1)),
            PurchaseLimit.ONE, Duration.ofMinutes(15), List.of(new ActivityItem(SKU, 30, null, 2)), false, THREE);

    @AfterEach
    void forget() {
        fixture.forget(sale);
    }

    @Test
    void givenSalesOfThreeSlices_thenEachSalesSlicesLandOnThreeDistinctMasters_atTheSlotsRedisHashesThemTo() {
        for (int i = 0; i < 25; i++) {
            List<SaleSlice> slices = slicesOf(new ActivityId("cluster-slices-" + i));

            assertThat(slices.stream().map(this::masterOf).distinct()).as("sale %d", i).hasSize(3);
            for (SaleSlice slice : slices) {
                assertThat(cluster.sync().clusterKeyslot(RedisKeys.stock(slice)))
                        .isEqualTo(SliceTags.slotOf(RedisKeys.tag(slice)));
            }
        }
    }

    @Test
    void givenSlicesOnTwoMasters_thenATakeOnOneAndACreditOnTheOtherMoveTheUnitsOnce() {
        fixture.warmUp(sale);
        List<SaleSlice> slices = SliceFixture.slicesOf(sale);
        SaleSlice from = slices.getFirst();
        SaleSlice to = slices.stream().filter(slice -> !masterOf(slice).equals(masterOf(from))).findFirst()
                .orElseThrow();
        SaleSlice other = slices.stream().filter(slice -> slice != from && slice != to).findFirst().orElseThrow();

        assertThat(port.take(from, SKU, 1, 7)).hasValue(7);
        assertThat(port.credit(to, SKU, 1, 7)).isTrue();
        assertThat(port.take(from, SKU, 1, 7)).as("again").hasValue(7);
        assertThat(port.credit(to, SKU, 1, 7)).as("again").isTrue();

        assertThat(fixture.ledger(from, SKU)).isEqualTo(new StockLedger(3, 0, 0));
        assertThat(fixture.ledger(other, SKU)).isEqualTo(new StockLedger(10, 0, 0));
        assertThat(fixture.ledger(to, SKU)).isEqualTo(new StockLedger(17, 0, 0));
        assertThat(fixture.segments(to, SKU)).containsExactly(9L, 8L);
    }

    private String masterOf(SaleSlice slice) {
        return cluster.getPartitions().getPartitionBySlot(SliceTags.slotOf(RedisKeys.tag(slice))).getNodeId();
    }

    private static List<SaleSlice> slicesOf(ActivityId sale) {
        return IntStream.range(0, 3).mapToObj(k -> new SaleSlice(sale, k, THREE)).toList();
    }
}
