package io.flashsale.application.order.service;

import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import org.mockito.ArgumentMatcher;

import java.util.List;

/** Restores of closed orders as the services hand them to the hot store, the order's buyer, request and lines along. */
final class RestoreFixtures {

    private RestoreFixtures() {
    }

    /** The restore of an order of one unit, with a request named after the id. */
    static PendingRestore pending(ReservationId id, ReservationStatus finalStatus) {
        return new PendingRestore(id, new BuyerId("alice"), new RequestId("r-" + id.value().replace(".", "-")),
                List.of(new ReservationLine(new SkuId("sku-1"), 1)), finalStatus);
    }

    /** Matches the restore of one order by its id and final status. */
    static ArgumentMatcher<PendingRestore> restoring(ReservationId id, ReservationStatus finalStatus) {
        return restore -> restore != null && restore.reservationId().equals(id)
                && restore.finalStatus() == finalStatus;
    }
}
