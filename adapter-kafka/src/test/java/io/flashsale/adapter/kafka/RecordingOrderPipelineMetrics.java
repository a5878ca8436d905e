package io.flashsale.adapter.kafka;

import io.flashsale.application.order.port.out.OrderPipelineMetricsPort;
import io.flashsale.domain.order.OrderPlacement;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** The application's metrics port as the Kafka adapter reaches it: dead letters and waits for the stores. */
final class RecordingOrderPipelineMetrics implements OrderPipelineMetricsPort {

    private final List<String> deadLettered = new CopyOnWriteArrayList<>();
    private final AtomicInteger storeWaits = new AtomicInteger();

    @Override
    public void recorded(OrderPlacement placement) {
        // Placements are the use case's to report; the scripted one in these tests reports none.
    }

    @Override
    public void relayed(int reservations) {
        // The relay is not part of these tests.
    }

    @Override
    public void deadLettered(String reservationId) {
        deadLettered.add(reservationId);
    }

    @Override
    public void waitedForStores(int deliveries) {
        storeWaits.incrementAndGet();
    }

    int storeWaits() {
        return storeWaits.get();
    }

    long deadLetteredCount(String reservationId) {
        return deadLettered.stream().filter(reservationId::equals).count();
    }
}
