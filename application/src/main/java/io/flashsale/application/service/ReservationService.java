package io.flashsale.application.service;

import io.flashsale.application.port.in.ActivityNotFoundException;
import io.flashsale.application.port.in.GetReservationUseCase;
import io.flashsale.application.port.in.ReserveStockCommand;
import io.flashsale.application.port.in.ReserveStockUseCase;
import io.flashsale.application.port.out.ActivityRepository;
import io.flashsale.application.port.out.IdGenerator;
import io.flashsale.application.port.out.OrderRepository;
import io.flashsale.application.port.out.StockReservationPort;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;

import java.time.Clock;
import java.util.Optional;

/**
 * The hot path: one call to the stock store decides the attempt. The database of record is only
 * asked when the store does not know the activity, to tell "not warmed up" from "no such activity", and when
 * it does not know a reservation (lost by the store, or archived), whose order then tells its status.
 */
public class ReservationService implements ReserveStockUseCase, GetReservationUseCase {

    private final StockReservationPort stock;
    private final ActivityRepository activities;
    private final OrderRepository orders;
    private final IdGenerator ids;
    private final Clock clock;

    public ReservationService(StockReservationPort stock, ActivityRepository activities, OrderRepository orders,
                              IdGenerator ids, Clock clock) {
        this.stock = stock;
        this.activities = activities;
        this.orders = orders;
        this.ids = ids;
        this.clock = clock;
    }

    @Override
    public ReservationOutcome reserve(ReserveStockCommand command) {
        String token = ids.next();
        ReservationId id = ReservationId.of(command.activityId(), token);
        // Without a key from the buyer the attempt is its own key: it can never be replayed.
        RequestId requestId = command.requestId() != null ? command.requestId() : new RequestId(token);
        ReservationOutcome outcome = stock.reserve(
                new ReservationRequest(id, command.buyerId(), requestId, command.lines(), clock.instant()));
        if (outcome instanceof ReservationOutcome.NotReady && activities.findById(command.activityId()).isEmpty()) {
            throw new ActivityNotFoundException(command.activityId());
        }
        return outcome;
    }

    @Override
    public Optional<Reservation> find(BuyerId buyerId, ReservationId reservationId) {
        return stock.findReservation(reservationId)
                .or(() -> orders.find(reservationId).map(Order::toReservation))
                .filter(reservation -> reservation.isOwnedBy(buyerId));
    }
}
