package io.flashsale.adapter.redis;

import io.flashsale.application.order.port.out.OutboxNewsListener;
import io.flashsale.application.reservation.port.out.StockReturnListener;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.testsupport.TestServices;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The service's Redis side chosen by configuration: {@link RedisHotStore} with cluster nodes runs against a 3-master
 * cluster. Sales land on different masters (each activity's keys in its own slot), and each master gets the scripts
 * it needs (NOSCRIPT on a node is answered there by EVAL), and another instance hears every return and every sale's
 * outbox news.
 */
@Timeout(60)
class RedisClusterHotStoreIT {

    private static final Instant NOW = Instant.now();
    private static final SkuId SKU = new SkuId("unit");

    private final String registry = SharedRedis.newRegistry();
    private final RedisHotStore store = RedisHotStore.connect(new RedisHotStore.Settings("unused", 0, null, 0,
            Duration.ofSeconds(10), TestServices.redisCluster().nodes()), registry);
    private final RedisHotStore otherInstance = RedisHotStore.connect(new RedisHotStore.Settings("unused", 0, null, 0,
            Duration.ofSeconds(10), TestServices.redisCluster().nodes()), registry);
    private final List<ActivityId> sales = IntStream.range(0, 12)
            .mapToObj(i -> new ActivityId("cl-" + UUID.randomUUID().toString().substring(0, 12))).toList();

    @AfterEach
    void forget() {
        sales.forEach(SharedRedisCluster::forget);
        SharedRedisCluster.connection().sync().del(registry);
        store.close();
        otherInstance.close();
    }

    @Test
    void givenSalesOnEveryMaster_whenEachIsWarmedUpReservedAndReleased_thenEveryMasterRunsTheScripts()
            throws InterruptedException {
        var roles = store.reservationRoles();
        var stock = roles.hotPath();
        Set<String> withNews = ConcurrentHashMap.newKeySet();
        otherInstance.outboxNews().subscribe(new OutboxNewsListener() {
            @Override
            public void news(ActivityId activityId) {
                withNews.add(activityId.value());
            }

            @Override
            public void missedSome() {
            }
        });
        Set<String> returned = ConcurrentHashMap.newKeySet();
        otherInstance.stockReturns().subscribe(new StockReturnListener() {
            @Override
            public void returned(ActivityId activityId) {
                returned.add(activityId.value());
            }

            @Override
            public void missedSome() {
            }
        });
        for (ActivityId sale : sales) {
            stock.warmUp(new Activity(sale, "cluster", NOW.minusSeconds(60), NOW.plusSeconds(3600), PurchaseLimit.ONE,
                    Duration.ofMinutes(15), List.of(ActivityItem.of(SKU.value(), 1))));
            var id = ReservationId.of(sale, UUID.randomUUID().toString().replace("-", ""));
            ReservationOutcome outcome = stock.reserve(new ReservationRequest(id, new BuyerId("b"), new RequestId("k"),
                    List.of(new ReservationLine(SKU, 1)), Instant.now()));
            assertThat(outcome).isInstanceOf(ReservationOutcome.Reserved.class);
            assertThat(roles.transitions().release(id, Instant.now())).isTrue();
            assertThat(stock.stock(sale).orElseThrow().getFirst().ledger().available()).isEqualTo(1);
        }

        Set<String> masters = sales.stream().map(sale -> SharedRedisCluster.connection().getPartitions()
                .getPartitionBySlot(SlotHash.getSlot(RedisKeys.stock(sale))).getNodeId()).collect(Collectors.toSet());
        assertThat(masters).as("12 sales spread over the masters").hasSizeGreaterThan(1);
        List<String> all = sales.stream().map(ActivityId::value).toList();
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!(returned.containsAll(all) && withNews.containsAll(all)) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(returned).containsAll(all);
        assertThat(withNews).as("the other instance heard of every sale's reservation").containsAll(all);
    }

    @Test
    void givenACluster_thenTheIncarnationNamesEveryMastersRunId() {
        var connection = SharedRedisCluster.connection();
        List<String> masters = connection.getPartitions().stream()
                .filter(node -> node.is(RedisClusterNode.NodeFlag.UPSTREAM)).map(node -> node.getNodeId() + "="
                        + connection.getConnection(node.getNodeId()).sync().info("server").lines()
                        .filter(line -> line.startsWith("run_id:")).findFirst().orElseThrow().substring(7).trim())
                .sorted().toList();

        assertThat(masters).hasSize(3);
        assertThat(store.incarnation()).as("a restart of any master changes it").isEqualTo(String.join(",", masters));
    }

    @Test
    void givenAnActivity_thenAllItsKeysShareOneSlot() {
        for (ActivityId sale : sales) {
            assertThat(RedisKeys.activityKeys(sale).stream().map(SlotHash::getSlot).distinct()).hasSize(1);
        }
    }
}
