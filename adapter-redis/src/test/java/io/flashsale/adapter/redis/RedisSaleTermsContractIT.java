package io.flashsale.adapter.redis;

import io.flashsale.application.contract.SaleTermsContract;
import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.application.sale.port.out.HotStoreSaleTermsPort;
import org.junit.jupiter.api.AfterEach;

/** The sale-terms contract on the real Redis: sale_terms.lua writes, reserve.lua and warm_up.lua read (ADR 79). */
class RedisSaleTermsContractIT extends SaleTermsContract {

    private final RedisSaleTerms terms = new RedisSaleTerms(SharedRedis.commands());

    @Override
    protected StockReservationPort stock() {
        return SharedRedis.adapter();
    }

    @Override
    protected HotStoreSaleTermsPort terms() {
        return terms;
    }

    @AfterEach
    void forgetTheActivity() {
        SharedRedis.forget(activityId());
    }
}
