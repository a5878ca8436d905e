package io.flashsale.adapter.redis;

import io.flashsale.application.contract.StockReservationContract;
import io.flashsale.application.port.out.StockReservationPort;
import org.junit.jupiter.api.AfterEach;

/** The shared stock-port contract, run against the Lua scripts on a 3-master Redis Cluster. */
class RedisClusterStockReservationContractIT extends StockReservationContract {

    @Override
    protected StockReservationPort store() {
        return SharedRedisCluster.adapter();
    }

    @AfterEach
    void forgetTheActivity() {
        SharedRedisCluster.forget(activityId());
    }
}
