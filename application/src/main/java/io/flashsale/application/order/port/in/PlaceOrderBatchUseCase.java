package io.flashsale.application.order.port.in;

import io.flashsale.application.order.model.OrderBatchFailedException;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.reservation.Reservation;

import java.util.List;

public interface PlaceOrderBatchUseCase {

    /**
     * Settles a batch of delivered reservations in the database of record, then tells the hot store, with a fixed
     * number of round trips per batch. Safe to repeat, for the whole batch or any part of it; a reservation delivered
     * twice in one batch is settled once. One placement per delivered reservation, in delivery order.
     *
     * @throws OrderBatchFailedException when the follow-up of one reservation failed after the batch was settled:
     *                                   the ones before it are done
     */
    List<OrderPlacement> placeOrders(List<Reservation> batch);
}
