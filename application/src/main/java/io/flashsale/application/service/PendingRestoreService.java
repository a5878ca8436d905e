package io.flashsale.application.service;

import io.flashsale.application.port.in.CompletePendingRestoresUseCase;
import io.flashsale.application.port.out.OrderRepository;
import io.flashsale.application.port.out.PendingRestore;
import io.flashsale.application.port.out.StockReservationPort;

import java.time.Clock;

/**
 * The repair sweep: finishes the hot store's half of restores the database of record remembers as due (the process
 * died in between, the hot store was down, or it had not been told of the order yet). Idempotent end to end, so any
 * number of instances may sweep at once.
 */
public class PendingRestoreService implements CompletePendingRestoresUseCase {

    private final OrderRepository orders;
    private final HotStoreRestores restores;
    private final Clock clock;

    public PendingRestoreService(OrderRepository orders, StockReservationPort stock, Clock clock) {
        this.orders = orders;
        this.restores = new HotStoreRestores(orders, stock, clock);
        this.clock = clock;
    }

    @Override
    public int completePendingRestores(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be positive");
        }
        int completed = 0;
        for (PendingRestore pending : orders.dueHotStoreRestores(clock.instant(), max)) {
            if (restores.complete(pending.reservationId(), pending.finalStatus())) {
                completed++;
            }
        }
        return completed;
    }
}
