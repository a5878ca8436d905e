package io.flashsale.adapter.metrics;

import io.flashsale.testsupport.LogCapture;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.order.OrderRefusal;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class MicrometerOrderPipelineMetricsTest {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final MicrometerOrderPipelineMetrics metrics = new MicrometerOrderPipelineMetrics(registry);

    @Test
    void givenPlacements_whenRecorded_thenEachOutcomeIsCountedUnderItsTag() {
        Reservation reservation = reservation();

        metrics.recorded(new OrderPlacement.Placed(Order.placed(reservation, NOW)));
        metrics.recorded(new OrderPlacement.Placed(Order.placed(reservation, NOW)));
        metrics.recorded(new OrderPlacement.AlreadyPlaced(Order.placed(reservation, NOW)));
        metrics.recorded(new OrderPlacement.Refused(Order.refused(reservation, OrderRefusal.OUT_OF_STOCK, NOW)));

        assertThat(orders("placed")).isEqualTo(2);
        assertThat(orders("duplicate")).isEqualTo(1);
        assertThat(orders("refused")).isEqualTo(1);
    }

    @Test
    void givenRelayedBatches_whenRecorded_thenTheirSizesAddUp() {
        metrics.relayed(200);
        metrics.relayed(3);

        assertThat(registry.get(MicrometerOrderPipelineMetrics.RELAYED).counter().count()).isEqualTo(203);
    }

    @Test
    void givenBatchesHeldBackForTheBuyers_whenRecorded_thenTheGaveWayTimerCountsAndTimesThem() {
        metrics.gaveWay(Duration.ofMillis(300));
        metrics.gaveWay(Duration.ofSeconds(2));

        var gaveWay = registry.get(MicrometerOrderPipelineMetrics.GAVE_WAY).timer();
        assertThat(gaveWay.count()).isEqualTo(2);
        assertThat(gaveWay.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(2300);
    }

    @Test
    void givenSettledBatchesAndOrders_whenRecorded_thenBatchSizesAndTheReservationToOrderTimerShowThem() {
        metrics.batchSettled(300);
        metrics.batchSettled(100);
        metrics.ordered(java.time.Duration.ofMillis(40));
        metrics.ordered(java.time.Duration.ofMillis(-5));

        var sizes = registry.get(MicrometerOrderPipelineMetrics.BATCH_SIZE).summary();
        assertThat(sizes.count()).isEqualTo(2);
        assertThat(sizes.totalAmount()).isEqualTo(400);
        var latency = registry.get(MicrometerOrderPipelineMetrics.RESERVATION_TO_ORDER).timer();
        assertThat(latency.count()).isEqualTo(2);
        assertThat(latency.max(java.util.concurrent.TimeUnit.MILLISECONDS)).isEqualTo(40);
        assertThat(latency.totalTime(java.util.concurrent.TimeUnit.MILLISECONDS)).as("a clock skew counts as 0")
                .isEqualTo(40);
    }

    @Test
    void givenNoDeadLetter_thenTheDeadLetterCounterIsExposedAtZero() {
        assertThat(registry.get(MicrometerOrderPipelineMetrics.DEAD_LETTERED).counter().count()).isZero();
    }

    @Test
    void givenDeadLetteredEvents_whenReported_thenEachIsCountedOnce() {
        metrics.deadLettered("sale-1.0123abcd");
        metrics.deadLettered("a key with\na line break");

        assertThat(registry.get(MicrometerOrderPipelineMetrics.DEAD_LETTERED).counter().count()).isEqualTo(2);
    }

    @Test
    void givenARefusalInABatch_whenItIsLogged_thenTheLineCarriesTheReservationsIdsAndTheThreadsMdcIsKept() {
        MDC.put("batch", "kept");
        try (LogCapture log = LogCapture.of(MicrometerOrderPipelineMetrics.class)) {
            metrics.recorded(new OrderPlacement.Refused(Order.refused(reservation(), OrderRefusal.OUT_OF_STOCK, NOW)));

            assertThat(log.events()).singleElement().satisfies(line -> assertThat(line.getMDCPropertyMap())
                    .containsEntry("requestId", "req-1")
                    .containsEntry("reservationId", "sale-1.0123abcd")
                    .containsEntry("activityId", "sale-1")
                    .containsEntry("buyerId", "alice"));
            assertThat(MDC.getCopyOfContextMap()).as("the consumer thread's MDC afterwards")
                    .containsExactlyEntriesOf(Map.of("batch", "kept"));
        } finally {
            MDC.clear();
        }
    }

    @Test
    void givenADeadLetter_whenItIsLogged_thenTheLineCarriesItsReservationAndActivityIdsButNoForgedOnes() {
        try (LogCapture log = LogCapture.of(MicrometerOrderPipelineMetrics.class)) {
            metrics.deadLettered("sale-1.0123abcd");
            metrics.deadLettered("a key with\na line break");

            assertThat(log.events()).hasSize(2);
            assertThat(log.events().get(0).getMDCPropertyMap()).containsEntry("reservationId", "sale-1.0123abcd")
                    .containsEntry("activityId", "sale-1");
            assertThat(log.events().get(1).getMDCPropertyMap()).doesNotContainKeys("reservationId", "activityId");
        }
        assertThat(MDC.getCopyOfContextMap()).isNullOrEmpty();
    }

    private double orders(String outcome) {
        return registry.get(MicrometerOrderPipelineMetrics.ORDERS).tag(MicrometerOrderPipelineMetrics.OUTCOME, outcome)
                .counter().count();
    }

    private static Reservation reservation() {
        ActivityId activity = new ActivityId("sale-1");
        return new Reservation(ReservationId.of(activity, "0123abcd"), activity, new BuyerId("alice"),
                new RequestId("req-1"), List.of(new ReservationLine(new SkuId("sku-a"), 1)), ReservationStatus.RESERVED,
                NOW.minusSeconds(1));
    }
}
