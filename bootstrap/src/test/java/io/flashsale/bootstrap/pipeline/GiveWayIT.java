package io.flashsale.bootstrap.pipeline;

import io.flashsale.adapter.metrics.MicrometerOrderPipelineMetrics;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.test.context.TestPropertySource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * ADR 65 on the real pipeline: while buyers keep arriving at a busy instance, its order consumer holds its batches
 * back, and once they stop every accepted reservation still becomes exactly one order. How busy the machine is is
 * not the test's to set, so any CPU use counts as busy here; the crowd looks every 200 ms (a test's buyers can pause
 * for a few milliseconds between attempts), and no batch waits longer than 4 s, longer than the crowd lasts.
 */
@TestPropertySource(properties = {"flashsale.orders.give-way.busy-at=0.000001",
        "flashsale.orders.give-way.look=200ms", "flashsale.orders.give-way.max-wait=4s"})
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class GiveWayIT extends PipelineTestBase {

    private static final Duration CROWD = Duration.ofMillis(2500);
    private static final int BUYERS_AT_ONCE = 8;

    @Test
    void givenBuyersWhoKeepArriving_thenNoOrderIsPlacedWhileTheyDo_andAfterwardsEachAcceptedReservationIsOneOrder()
            throws Exception {
        String sale = openSale(1_000_000);
        ActivityId activity = new ActivityId(sale);
        double heldBefore = heldBatches();
        Map<String, String> accepted = new ConcurrentHashMap<>();
        AtomicBoolean arriving = new AtomicBoolean(true);
        AtomicInteger next = new AtomicInteger();
        List<Future<?>> buyers = new ArrayList<>();
        long soldWhileArriving = 0;
        try (ExecutorService crowd = Executors.newFixedThreadPool(BUYERS_AT_ONCE)) {
            for (int i = 0; i < BUYERS_AT_ONCE; i++) {
                buyers.add(crowd.submit(() -> {
                    while (arriving.get()) {
                        String buyer = "crowd-" + next.incrementAndGet();
                        ServiceClient.Reply reply = reserveAsync(sale, buyer).join();
                        assertThat(reply.status()).as(reply.body()).isEqualTo(202);
                        accepted.put(reply.json().path("reservationId").asString(), buyer);
                    }
                    return null;
                }));
            }
            long until = System.nanoTime() + CROWD.toNanos();
            while (System.nanoTime() < until) {
                soldWhileArriving = Math.max(soldWhileArriving, sold(activity));
                Thread.sleep(50);
            }
            arriving.set(false);
            for (Future<?> buyer : buyers) {
                buyer.get(30, TimeUnit.SECONDS);
            }
        }

        assertThat(accepted).as("reservations accepted while the buyers kept arriving").hasSizeGreaterThan(20);
        assertThat(soldWhileArriving).as("orders placed while the buyers kept arriving").isZero();
        await().atMost(WITHIN).until(() -> sold(activity) == accepted.size());
        accepted.forEach((reservation, buyer) -> {
            Order order = orders.find(new ReservationId(reservation)).orElseThrow();
            assertThat(order.status()).as(reservation).isEqualTo(ReservationStatus.ORDERED);
            assertThat(order.buyerId().value()).isEqualTo(buyer);
        });
        assertThat(heldBatches()).as("batches the consumer held back").isGreaterThan(heldBefore);
    }

    private long sold(ActivityId activity) {
        return figures.soldBySku(activity).getOrDefault(new SkuId(SKU), 0L);
    }

    private double heldBatches() {
        var timer = meters.find(MicrometerOrderPipelineMetrics.GAVE_WAY).timer();
        return timer == null ? 0 : timer.count();
    }
}
