package io.flashsale.application.reconciliation.service;

import io.flashsale.application.order.port.out.HotStoreSettlementPort;
import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.application.reconciliation.port.out.RecordedOrdersPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.order.Order;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A rebuild's last step: the orders the database closed while its pages were read are restored in the hot store,
 * a page at a time, unless their record shows it already (the restore is idempotent).
 */
record ClosedOrdersCatchUp(RecordedOrdersPort orders, HotStoreSettlementPort settlement, int page) {

    /** The sale's orders closed since {@code since} that {@code rebuilt} holds, restored. */
    void restore(ActivityId activityId, Instant since, Predicate<Order> rebuilt) {
        List<PendingRestore> closed = new ArrayList<>();
        for (Order order : orders.closedSince(activityId, since)) {
            if (!rebuilt.test(order)) {
                continue;
            }
            closed.add(PendingRestore.of(order));
            if (closed.size() == page) {
                settlement.restore(activityId, List.copyOf(closed));
                closed.clear();
            }
        }
        if (!closed.isEmpty()) {
            settlement.restore(activityId, closed);
        }
    }
}
