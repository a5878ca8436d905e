package io.flashsale.application.order.service;

import io.flashsale.application.order.port.in.CompletePendingRestoresUseCase;
import io.flashsale.application.order.port.out.HotStoreSettlementPort;
import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.application.order.port.out.RestoreQueuePort;

import java.time.Clock;
import java.util.List;

/**
 * The repair sweep: finishes the hot store's half of restores the database of record remembers as due (the process
 * died in between, the hot store was down, or it had not been told of the order yet), a batch per pass with one
 * script per activity. Idempotent end to end, so any number of instances may sweep at once.
 */
public class PendingRestoreService implements CompletePendingRestoresUseCase {

    private final RestoreQueuePort restoreQueue;
    private final BatchRestores restores;
    private final Clock clock;

    public PendingRestoreService(RestoreQueuePort restoreQueue, HotStoreSettlementPort hotStore, Clock clock) {
        this.restoreQueue = restoreQueue;
        this.restores = new BatchRestores(restoreQueue, hotStore, clock);
        this.clock = clock;
    }

    @Override
    public int completePendingRestores(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be positive");
        }
        List<PendingRestore> due = restoreQueue.dueHotStoreRestores(clock.instant(), max);
        return due.isEmpty() ? 0 : restores.complete(due);
    }
}
