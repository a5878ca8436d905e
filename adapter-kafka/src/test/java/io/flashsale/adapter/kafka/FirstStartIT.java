package io.flashsale.adapter.kafka;

import io.flashsale.application.order.port.out.ReservationEventPublisherPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.Reservation;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The first start of the order consumer, with a consumer group that has no offsets yet: reservations the relay
 * published before it (say, while the first deployment was rolling out) are placed, not skipped.
 */
@SpringBootTest(classes = PipelineTestApplication.class, properties = "spring.kafka.listener.auto-startup=false")
@DirtiesContext
class FirstStartIT {

    private static final String TOPIC = "first-start-it-" + UUID.randomUUID();

    @Autowired
    private ReservationEventPublisherPort publisher;
    @Autowired
    private KafkaListenerEndpointRegistry listeners;
    @Autowired
    private ScriptedPlaceOrder orders;

    @DynamicPropertySource
    static void pipelineProperties(DynamicPropertyRegistry registry) {
        PipelineProperties.register(registry, TOPIC, "first-start-it-" + UUID.randomUUID(), 2);
    }

    @Test
    void givenReservationsPublishedBeforeTheConsumerGroupEverRan_whenTheListenerStarts_thenItPlacesThemAll() {
        ActivityId activity = Reservations.newActivity();
        List<Reservation> early = IntStream.range(0, 6).mapToObj(i -> Reservations.reserved(activity)).toList();
        MessageListenerContainer container = listeners.getListenerContainer(ReservationOrderListener.LISTENER_ID);
        assertThat(container).isNotNull();
        assertThat(container.isRunning()).isFalse();

        publisher.publish(early);
        container.start();

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(orders.placed()).containsAll(early));
    }
}
