package io.flashsale.application.reference;

import io.flashsale.application.contract.StockReservationContract;

/** The reference model keeps the contract it referees. */
class InMemoryStockReservationsTest extends StockReservationContract<InMemoryStockReservations> {

    @Override
    protected InMemoryStockReservations store() {
        return new InMemoryStockReservations();
    }
}
