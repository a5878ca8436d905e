package io.flashsale.application.order.service;

import io.flashsale.application.order.port.out.HotStoreSettlementPort;
import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.application.order.port.out.RestoreQueuePort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The hot store's half of giving back a batch of closed orders' units: one script per activity, one statement to mark
 * them done in the database, as {@link HotStoreRestores} does for one. A reservation still RESERVED there (the order
 * pipeline has not confirmed it yet) is postponed; any other status means nothing is left to give back.
 */
final class BatchRestores {

    private final RestoreQueuePort restoreQueue;
    private final HotStoreSettlementPort hotStore;
    private final Clock clock;

    BatchRestores(RestoreQueuePort restoreQueue, HotStoreSettlementPort hotStore, Clock clock) {
        this.restoreQueue = restoreQueue;
        this.hotStore = hotStore;
        this.clock = clock;
    }

    /** @return how many restores are finished (not postponed) */
    int complete(List<PendingRestore> pending) {
        Map<ActivityId, List<PendingRestore>> byActivity = new LinkedHashMap<>();
        for (PendingRestore restore : pending) {
            byActivity.computeIfAbsent(restore.reservationId().activityId(), a -> new ArrayList<>()).add(restore);
        }
        List<ReservationId> done = new ArrayList<>();
        List<ReservationId> postponed = new ArrayList<>();
        byActivity.forEach((activity, restores) -> {
            Map<ReservationId, ReservationStatus> before = hotStore.restore(activity, restores);
            for (PendingRestore restore : restores) {
                ReservationId id = restore.reservationId();
                if (before.get(id) == ReservationStatus.RESERVED) {
                    postponed.add(id);
                } else {
                    done.add(id);
                }
            }
        });
        if (!done.isEmpty()) {
            restoreQueue.hotStoreRestoredAll(done);
        }
        postponed.forEach(id -> restoreQueue.postponeHotStoreRestore(id, clock.instant().plus(HotStoreRestores.RETRY_AFTER)));
        return done.size();
    }
}
