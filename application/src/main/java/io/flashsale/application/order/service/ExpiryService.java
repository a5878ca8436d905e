package io.flashsale.application.order.service;

import io.flashsale.application.order.port.in.ExpireUnpaidOrdersUseCase;
import io.flashsale.application.order.port.out.HotStoreSettlementPort;
import io.flashsale.application.order.port.out.OrderTransitionsPort;
import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.application.order.port.out.RestoreQueuePort;

import java.time.Clock;
import java.util.List;

/**
 * The payment timeout, in batches: the database of record expires up to N due orders in one transaction (claimed so
 * that instances running this at once never take the same order) and gives their units back grouped per SKU, then
 * the hot store gives them back with one script per activity. When the hot store fails, the orders stay expired in
 * the database with their restores due, and the sweep ({@link PendingRestoreService}) finishes them.
 */
public class ExpiryService implements ExpireUnpaidOrdersUseCase {

    private final OrderTransitionsPort transitions;
    private final BatchRestores restores;
    private final Clock clock;

    public ExpiryService(OrderTransitionsPort transitions, RestoreQueuePort restoreQueue, HotStoreSettlementPort hotStore,
                         Clock clock) {
        this.transitions = transitions;
        this.restores = new BatchRestores(restoreQueue, hotStore, clock);
        this.clock = clock;
    }

    @Override
    public int expireDue(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be positive");
        }
        List<PendingRestore> expired = transitions.expireDue(clock.instant(), max);
        if (expired.isEmpty()) {
            return 0;
        }
        try {
            restores.complete(expired);
        } catch (RuntimeException hotStoreFailed) {
            // The database's decision stands; the restores stay due and the sweep repeats them.
        }
        return expired.size();
    }
}
