package io.flashsale.application.service;

import io.flashsale.application.port.in.PlaceOrderUseCase;
import io.flashsale.application.port.out.OrderPipelineMetrics;
import io.flashsale.application.port.out.OrderRepository;
import io.flashsale.application.port.out.StockReservationPort;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;

import java.time.Clock;

/**
 * Turns a delivered reservation into an order: the database of record decides first, then the hot store is told.
 * Every step is idempotent, so a delivery that died anywhere can simply be delivered again.
 */
public class OrderService implements PlaceOrderUseCase {

    private final OrderRepository orders;
    private final StockReservationPort stock;
    private final OrderPipelineMetrics metrics;
    private final Clock clock;

    public OrderService(OrderRepository orders, StockReservationPort stock, OrderPipelineMetrics metrics, Clock clock) {
        this.orders = orders;
        this.stock = stock;
        this.metrics = metrics;
        this.clock = clock;
    }

    @Override
    public OrderPlacement placeOrder(Reservation reservation) {
        OrderPlacement placement = orders.place(reservation, clock.instant());
        // Recorded before the hot store is told: the database's decision stands even if Redis is down now.
        metrics.recorded(placement);
        ReservationId id = reservation.id();
        switch (placement) {
            case OrderPlacement.Placed placed -> stock.confirm(id);
            // The first delivery may have died between the commit and the hot store's update: repeat it.
            case OrderPlacement.AlreadyPlaced already -> {
                if (already.order().status() == ReservationStatus.FAILED) {
                    stock.fail(id);
                } else {
                    stock.confirm(id);
                }
            }
            case OrderPlacement.Refused refused -> stock.fail(id);
        }
        return placement;
    }
}
