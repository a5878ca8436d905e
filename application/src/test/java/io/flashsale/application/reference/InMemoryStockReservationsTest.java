package io.flashsale.application.reference;

import io.flashsale.application.contract.StockReservationContract;
import io.flashsale.application.reservation.port.out.StockReservationPort;

/** The reference model keeps the contract it referees. */
class InMemoryStockReservationsTest extends StockReservationContract {

    @Override
    protected StockReservationPort store() {
        return new InMemoryStockReservations();
    }
}
