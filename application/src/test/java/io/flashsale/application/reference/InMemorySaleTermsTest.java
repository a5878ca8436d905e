package io.flashsale.application.reference;

import io.flashsale.application.contract.SaleTermsContract;
import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.application.sale.port.out.HotStoreSaleTermsPort;

/** The reference model keeps the sale-terms contract it referees. */
class InMemorySaleTermsTest extends SaleTermsContract {

    private final InMemoryStockReservations store = new InMemoryStockReservations();

    @Override
    protected StockReservationPort stock() {
        return store;
    }

    @Override
    protected HotStoreSaleTermsPort terms() {
        return store;
    }
}
