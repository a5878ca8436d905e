package io.flashsale.adapter.redis;

import io.flashsale.application.contract.StockReservationContract;
import org.junit.jupiter.api.AfterEach;

/** The shared stock-port contract, run against the Lua scripts on the real Redis. */
class RedisStockReservationContractIT extends StockReservationContract<RedisStockReservationAdapter> {

    @Override
    protected RedisStockReservationAdapter store() {
        return SharedRedis.adapter();
    }

    @AfterEach
    void forgetTheActivity() {
        SharedRedis.forget(activityId());
    }
}
