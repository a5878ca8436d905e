package io.flashsale.adapter.kafka;

import io.flashsale.application.port.in.PlaceOrderUseCase;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;

/**
 * The order consumer: hands every reservation event to {@link PlaceOrderUseCase}. A failure is thrown back to the
 * container, whose error handler ({@link ReservationListenerContainerSetup}) retries and finally dead-letters it;
 * an offset is committed only after {@code placeOrder} returned for it. A delivery may repeat: placing an order
 * is idempotent.
 *
 * <p>A group that has no committed offset yet starts at the earliest record, so events published before the
 * first consumer joined are not skipped; the listener never commits on its own (no auto-commit).
 */
public class ReservationOrderListener {

    public static final String LISTENER_ID = "flashsale-reservation-orders";

    private final PlaceOrderUseCase placeOrder;
    private final ReservationMessageCodec codec = new ReservationMessageCodec();
    private final String topic;
    private final String groupId;
    private final int concurrency;

    public ReservationOrderListener(PlaceOrderUseCase placeOrder, String topic, String groupId, int concurrency) {
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency must be positive");
        }
        this.placeOrder = placeOrder;
        this.topic = topic;
        this.groupId = groupId;
        this.concurrency = concurrency;
    }

    @KafkaListener(id = LISTENER_ID, idIsGroup = false,
            topics = "#{__listener.topic()}", groupId = "#{__listener.groupId()}",
            concurrency = "#{__listener.concurrency()}",
            containerPostProcessor = ReservationListenerContainerSetup.BEAN_NAME,
            properties = {"auto.offset.reset=earliest", "enable.auto.commit=false"})
    public void onReservation(ConsumerRecord<String, String> record) {
        placeOrder.placeOrder(codec.decode(record.value()));
    }

    public String topic() {
        return topic;
    }

    public String groupId() {
        return groupId;
    }

    public String concurrency() {
        return Integer.toString(concurrency);
    }
}
