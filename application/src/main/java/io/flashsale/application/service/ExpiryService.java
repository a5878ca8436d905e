package io.flashsale.application.service;

import io.flashsale.application.port.in.ExpireUnpaidOrdersUseCase;
import io.flashsale.application.port.out.OrderRepository;
import io.flashsale.application.port.out.StockReservationPort;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/**
 * The payment timeout: the database of record expires due orders one transaction each (claimed so that instances
 * running this at once never take the same order), then the hot store gives the units back. When the hot store fails,
 * the rest of the pass still expires orders in the database and leaves their restores due for the sweep.
 */
public class ExpiryService implements ExpireUnpaidOrdersUseCase {

    private final OrderRepository orders;
    private final HotStoreRestores restores;
    private final Clock clock;

    public ExpiryService(OrderRepository orders, StockReservationPort stock, Clock clock) {
        this.orders = orders;
        this.restores = new HotStoreRestores(orders, stock, clock);
        this.clock = clock;
    }

    @Override
    public int expireDue(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be positive");
        }
        Instant now = clock.instant();
        boolean hotStoreAnswers = true;
        int expired = 0;
        while (expired < max) {
            Optional<ReservationId> next = orders.expireNextDue(now);
            if (next.isEmpty()) {
                break;
            }
            expired++;
            if (hotStoreAnswers) {
                try {
                    restores.complete(next.get(), ReservationStatus.EXPIRED);
                } catch (RuntimeException hotStoreFailed) {
                    // Asking again for every order would wait out a timeout each time; the sweep repairs them all.
                    hotStoreAnswers = false;
                }
            }
        }
        return expired;
    }
}
