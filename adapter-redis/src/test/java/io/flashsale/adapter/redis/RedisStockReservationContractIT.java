package io.flashsale.adapter.redis;

import io.flashsale.application.contract.StockReservationContract;
import io.flashsale.application.reservation.port.out.StockReservationPort;
import org.junit.jupiter.api.AfterEach;

/** The shared stock-port contract, run against the Lua scripts on the real Redis. */
class RedisStockReservationContractIT extends StockReservationContract {

    @Override
    protected StockReservationPort store() {
        return SharedRedis.adapter();
    }

    @AfterEach
    void forgetTheActivity() {
        SharedRedis.forget(activityId());
    }
}
