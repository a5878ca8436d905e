package io.flashsale.adapter.mysql;

import io.flashsale.domain.order.Order;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.Collection;

/**
 * {@value #RESTORED}{reason=expired|cancelled}: units the database of record took back from closed orders (unpaid
 * past the deadline, or cancelled), counted once the closing transaction committed. Registered at zero, so a rate has
 * a series from the start. A spike means buyers do not pay: the payment provider or its notifications.
 */
public final class RestoredStock {

    public static final String RESTORED = "flashsale.stock.restored";
    public static final String REASON = "reason";

    private final Counter expired;
    private final Counter cancelled;

    public RestoredStock(MeterRegistry registry) {
        expired = counter(registry, "expired");
        cancelled = counter(registry, "cancelled");
    }

    void restored(ReservationStatus closedAs, Collection<Order> orders) {
        long units = orders.stream().flatMap(order -> order.lines().stream())
                .mapToLong(ReservationLine::quantity).sum();
        if (units > 0) {
            (closedAs == ReservationStatus.EXPIRED ? expired : cancelled).increment(units);
        }
    }

    private static Counter counter(MeterRegistry registry, String reason) {
        return Counter.builder(RESTORED)
                .description("units the database of record took back from expired or cancelled orders")
                .baseUnit("units")
                .tag(REASON, reason)
                .register(registry);
    }
}
