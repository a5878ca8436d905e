package io.flashsale.adapter.metrics;

import io.flashsale.application.order.port.out.OrderPipelineMetricsPort;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.reservation.ReservationId;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@value #ORDERS}{outcome=placed|duplicate|refused|cancelled} (its placed rate is orders per second),
 * {@value #RELAYED}, {@value #DEAD_LETTERED}, {@value #STORE_WAITS} (attempts of batches held while a store was out of
 * reach, ADR 78), {@value #DEAD_LETTERS_RELEASED} and {@value #DEAD_LETTERS_HELD} (dead-lettered reservations given
 * back at their payment deadline, and those still holding units), {@value #BATCH_SIZE} (deliveries per consumer batch) and
 * {@value #RESERVATION_TO_ORDER} (a timer with percentiles and a histogram), {@value #GAVE_WAY} (how long batches
 * were held back for this instance's buyers, ADR 65). Every
 * refusal is also a WARN line, because it means the database of record and Redis disagree and reconciliation has work
 * to do; so is every dead letter, because it waits for an admin to replay it.
 */
public final class MicrometerOrderPipelineMetrics implements OrderPipelineMetricsPort {

    public static final String ORDERS = "flashsale.orders";
    public static final String RELAYED = "flashsale.relay.relayed";
    public static final String DEAD_LETTERED = "flashsale.orders.dead_lettered";
    public static final String OUTCOME = "outcome";
    public static final String BATCH_SIZE = "flashsale.orders.batch.size";
    public static final String RESERVATION_TO_ORDER = "flashsale.orders.reservation_to_order";
    public static final String GAVE_WAY = "flashsale.orders.gave_way";
    public static final String STORE_WAITS = "flashsale.orders.store_waits";
    public static final String DEAD_LETTERS_RELEASED = "flashsale.orders.dead_letters_released";
    public static final String DEAD_LETTERS_HELD = "flashsale.orders.dead_letters_held";

    /** The MDC names the HTTP requests and the Kafka consumer use, so one search follows a reservation. */
    static final String REQUEST_ID = "requestId";
    static final String RESERVATION_ID = "reservationId";
    static final String ACTIVITY_ID = "activityId";
    static final String BUYER_ID = "buyerId";

    private static final Logger LOG = LoggerFactory.getLogger(MicrometerOrderPipelineMetrics.class);

    private final Counter placed;
    private final Counter duplicate;
    private final Counter refused;
    private final Counter cancelled;
    private final Counter relayed;
    private final Counter deadLettered;
    private final DistributionSummary batchSize;
    private final Timer reservationToOrder;
    private final Timer gaveWay;
    private final Counter storeWaits;
    private final Counter deadLettersReleased;
    private final AtomicInteger deadLettersHeld = new AtomicInteger();

    public MicrometerOrderPipelineMetrics(MeterRegistry registry) {
        placed = orders(registry, "placed", "reservations that became an order");
        duplicate = orders(registry, "duplicate", "deliveries of reservations that were settled before");
        refused = orders(registry, "refused", "reservations the database refused: it disagrees with Redis");
        cancelled = orders(registry, "cancelled", "reservations the buyer cancelled before they became an order");
        relayed = Counter.builder(RELAYED)
                .description("outbox entries handed to the broker and acknowledged by it")
                .register(registry);
        deadLettered = Counter.builder(DEAD_LETTERED)
                .description("reservation events moved to the dead-letter topic after their last attempt")
                .register(registry);
        batchSize = DistributionSummary.builder(BATCH_SIZE)
                .description("deliveries the order consumer settled in one batch")
                .publishPercentiles(0.5, 0.99).register(registry);
        reservationToOrder = Timer.builder(RESERVATION_TO_ORDER)
                .description("from the hot store accepting a reservation to its order in the database of record")
                .publishPercentiles(0.5, 0.9, 0.99).publishPercentileHistogram()
                .register(registry);
        gaveWay = Timer.builder(GAVE_WAY)
                .description("batches the order consumer held back while this instance's buyers queued for its CPU")
                .register(registry);
        storeWaits = Counter.builder(STORE_WAITS)
                .description("attempts of order batches that met a store out of reach or a lost lock; the batch is"
                        + " held and tried again once the database answers, never dead-lettered")
                .register(registry);
        deadLettersReleased = Counter.builder(DEAD_LETTERS_RELEASED)
                .description("dead-lettered reservations closed unplaced at their payment deadline, units given back")
                .register(registry);
        Gauge.builder(DEAD_LETTERS_HELD, deadLettersHeld, AtomicInteger::get)
                .description("dead-lettered reservations still holding their units (within their payment deadline),"
                        + " as the last pass over the dead letters found them")
                .register(registry);
    }

    @Override
    public void waitedForStores(int deliveries) {
        storeWaits.increment();
    }

    @Override
    public void deadLetterReleased(Order order) {
        deadLettersReleased.increment();
        withIds(idsOf(order), () -> LOG.warn("Dead-lettered reservation {} of activity {} was not placed by its"
                + " payment deadline: closed as FAILED ({}), its units given back", order.id(), order.activityId(),
                order.failureReason()));
    }

    @Override
    public void deadLettersHeld(int reservations) {
        deadLettersHeld.set(reservations);
    }

    @Override
    public void gaveWay(Duration heldBack) {
        gaveWay.record(heldBack);
    }

    @Override
    public void batchSettled(int reservations) {
        batchSize.record(reservations);
    }

    @Override
    public void ordered(Duration sinceReserved) {
        reservationToOrder.record(sinceReserved.isNegative() ? Duration.ZERO : sinceReserved);
    }

    @Override
    public void recorded(OrderPlacement placement) {
        switch (placement) {
            case OrderPlacement.Placed ignored -> placed.increment();
            case OrderPlacement.AlreadyPlaced ignored -> duplicate.increment();
            case OrderPlacement.CancelledBeforeOrder ignored -> cancelled.increment();
            case OrderPlacement.Refused refusal -> {
                refused.increment();
                Order order = refusal.order();
                withIds(idsOf(order), () -> LOG.warn("Order refused by the database: reservation {} of activity {}, reason {}",
                                order.id(), order.activityId(), order.failureReason()));
            }
        }
    }

    @Override
    public void relayed(int reservations) {
        relayed.increment(reservations);
    }

    @Override
    public void deadLettered(String reservationId) {
        deadLettered.increment();
        Map<String, String> ids = ReservationId.isValid(reservationId)
                ? Map.of(RESERVATION_ID, reservationId,
                ACTIVITY_ID, new ReservationId(reservationId).activityId().value())
                : Map.of();
        withIds(ids, () -> LOG.warn("Reservation {} was dead-lettered after its last attempt; an admin can replay it "
                + "from /api/v1/admin/dead-letters", printable(reservationId)));
    }

    private static Map<String, String> idsOf(Order order) {
        return Map.of(REQUEST_ID, order.requestId().value(), RESERVATION_ID, order.id().value(),
                ACTIVITY_ID, order.activityId().value(), BUYER_ID, order.buyerId().value());
    }

    /**
     * A line about one reservation carries its ids in the MDC, under the names the HTTP requests use, so one search
     * follows it from the request through the pipeline; the consumer thread's own MDC is put back after.
     */
    private static void withIds(Map<String, String> ids, Runnable line) {
        Map<String, String> before = MDC.getCopyOfContextMap();
        ids.forEach(MDC::put);
        try {
            line.run();
        } finally {
            if (before == null) {
                MDC.clear();
            } else {
                MDC.setContextMap(before);
            }
        }
    }

    /** The id comes from a message key, which may hold anything: no line breaks or control characters in the log. */
    private static String printable(String text) {
        return text == null ? null : text.replaceAll("\\p{Cntrl}", "?");
    }

    private static Counter orders(MeterRegistry registry, String outcome, String description) {
        return Counter.builder(ORDERS).tag(OUTCOME, outcome).description(description).register(registry);
    }
}
