package io.flashsale.adapter.kafka;

import io.flashsale.application.order.port.out.EventPosition;
import io.flashsale.application.order.port.out.EventPublishException;
import io.flashsale.application.order.port.out.ReservationEventPublisherPort;
import io.flashsale.domain.reservation.Reservation;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.SendResult;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Publishes accepted reservations to the reservations topic, keyed by reservation id (so every event of one
 * reservation lands on one partition), and returns only after the broker acknowledged all of them.
 *
 * <p>The template's producer must be idempotent with {@code acks=all}; the constructor refuses any other. With
 * Spring Boot: {@code spring.kafka.producer.acks=all} and
 * {@code spring.kafka.producer.properties[enable.idempotence]=true}. A send blocks up to the producer's
 * {@code max.block.ms} (60 s by default) while the broker is unreachable, before this publisher's own wait starts:
 * keep {@code spring.kafka.producer.properties[max.block.ms]} at or below the acknowledgement timeout.
 */
public class KafkaReservationEventPublisher implements ReservationEventPublisherPort {

    public static final Duration DEFAULT_ACK_TIMEOUT = Duration.ofSeconds(10);

    private final KafkaTemplate<String, String> template;
    private final String topic;
    private final Duration ackTimeout;
    private final ReservationMessageCodec codec = new ReservationMessageCodec();

    public KafkaReservationEventPublisher(KafkaTemplate<String, String> template, String topic) {
        this(template, topic, DEFAULT_ACK_TIMEOUT);
    }

    /** @param ackTimeout how long one {@link #publish} waits, in all, for the acknowledgements of its batch */
    public KafkaReservationEventPublisher(KafkaTemplate<String, String> template, String topic, Duration ackTimeout) {
        if (ackTimeout.isNegative() || ackTimeout.isZero()) {
            throw new IllegalArgumentException("ackTimeout must be positive");
        }
        ProducerGuarantees.require(template.getProducerFactory().getConfigurationProperties());
        this.template = template;
        this.topic = topic;
        this.ackTimeout = ackTimeout;
    }

    /**
     * @throws EventPublishException when a send failed or was not acknowledged within the timeout; some of the
     *                               batch may still reach the topic, which the order consumer absorbs
     */
    @Override
    public void publish(List<Reservation> reservations) {
        publishAt(reservations);
    }

    /** The partition and offset of each acknowledged event, in the order of {@code reservations}. */
    @Override
    public List<EventPosition> publishAt(List<Reservation> reservations) {
        List<CompletableFuture<SendResult<String, String>>> sends = new ArrayList<>(reservations.size());
        try {
            for (Reservation reservation : reservations) {
                sends.add(template.send(topic, reservation.id().value(), codec.encode(reservation)));
            }
        } catch (RuntimeException refused) {
            throw new EventPublishException("topic " + topic + " refused reservation "
                    + reservations.get(sends.size()).id() + " of a batch of " + reservations.size(), refused);
        }
        return awaitAcknowledgements(sends);
    }

    private List<EventPosition> awaitAcknowledgements(List<CompletableFuture<SendResult<String, String>>> sends) {
        long deadline = System.nanoTime() + ackTimeout.toNanos();
        int unacknowledged = 0;
        Throwable firstFailure = null;
        List<EventPosition> positions = new ArrayList<>(sends.size());
        for (CompletableFuture<SendResult<String, String>> send : sends) {
            try {
                RecordMetadata stored = send.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)
                        .getRecordMetadata();
                positions.add(new EventPosition(stored.partition(), stored.offset()));
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new EventPublishException("interrupted while awaiting acknowledgements from " + topic, interrupted);
            } catch (ExecutionException failed) {
                unacknowledged++;
                firstFailure = firstFailure != null ? firstFailure : failed.getCause();
            } catch (TimeoutException timedOut) {
                unacknowledged++;
                firstFailure = firstFailure != null ? firstFailure : timedOut;
            }
        }
        if (unacknowledged > 0) {
            throw new EventPublishException(unacknowledged + " of " + sends.size()
                    + " reservations were not acknowledged by " + topic + " within " + ackTimeout, firstFailure);
        }
        return positions;
    }
}
