package io.flashsale.adapter.kafka;

import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.MDC;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The ids of one reservation event in the MDC while a line about it is logged, under the names the HTTP side uses
 * ({@code requestId}, {@code reservationId}, {@code activityId}, {@code buyerId}), so one grep follows a reservation
 * from its request through the pipeline. Closing it puts back what the thread had before. An id that does not have
 * the shape of one (a record key may hold anything) is left out, so a log line cannot be forged through it.
 */
final class ReservationLogContext implements AutoCloseable {

    static final String REQUEST_ID = "requestId";
    static final String RESERVATION_ID = "reservationId";
    static final String ACTIVITY_ID = "activityId";
    static final String BUYER_ID = "buyerId";

    private static final ReservationMessageCodec CODEC = new ReservationMessageCodec();

    private final Map<String, String> previous = new LinkedHashMap<>();

    private ReservationLogContext(Map<String, String> ids) {
        ids.forEach((name, value) -> {
            previous.put(name, MDC.get(name));
            MDC.put(name, value);
        });
    }

    /** Runs {@code logging} with the record's ids in the MDC. */
    static void during(ConsumerRecord<?, ?> record, Runnable logging) {
        try (ReservationLogContext context = of(record)) {
            context.run(logging);
        }
    }

    private void run(Runnable logging) {
        logging.run();
    }

    static ReservationLogContext of(Reservation reservation) {
        Map<String, String> ids = new LinkedHashMap<>();
        ids.put(REQUEST_ID, reservation.requestId().value());
        ids.put(RESERVATION_ID, reservation.id().value());
        ids.put(ACTIVITY_ID, reservation.activityId().value());
        ids.put(BUYER_ID, reservation.buyerId().value());
        return new ReservationLogContext(ids);
    }

    /** From the record's value when it decodes, else the reservation id (and its activity) from the key. */
    static ReservationLogContext of(ConsumerRecord<?, ?> record) {
        if (record.value() instanceof String value) {
            try {
                return of(CODEC.decode(value));
            } catch (RuntimeException undecodable) {
                // A malformed event: its key may still name the reservation.
            }
        }
        Map<String, String> ids = new LinkedHashMap<>();
        if (record.key() instanceof String key && ReservationId.isValid(key)) {
            ReservationId id = new ReservationId(key);
            ids.put(RESERVATION_ID, id.value());
            ids.put(ACTIVITY_ID, id.activityId().value());
        }
        return new ReservationLogContext(ids);
    }

    @Override
    public void close() {
        previous.forEach((name, value) -> {
            if (value == null) {
                MDC.remove(name);
            } else {
                MDC.put(name, value);
            }
        });
    }
}
