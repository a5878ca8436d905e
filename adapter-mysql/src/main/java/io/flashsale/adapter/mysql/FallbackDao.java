package io.flashsale.adapter.mysql;

import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;

/** What the database path of a reservation reads besides the order statements; the SQL is in FallbackDao.xml. */
@Mapper
interface FallbackDao {

    /** Locks the buyer's purchase row of one SKU, so one buyer's attempts on this path are decided one at a time. */
    Long lockPurchase(@Param("activityId") String activityId, @Param("buyerId") String buyerId,
                      @Param("skuId") String skuId);

    /** The reservation the buyer's idempotency key made before (an order that took stock), or null. */
    String selectByRequest(@Param("activityId") String activityId, @Param("buyerId") String buyerId,
                           @Param("requestId") String requestId);

    /** Units of the SKU still for sale in the database of record. */
    Long selectAvailable(@Param("activityId") String activityId, @Param("skuId") String skuId);

    /** Units of the SKU the buyer holds in orders, or null when the buyer holds none. */
    Long selectHeld(@Param("activityId") String activityId, @Param("buyerId") String buyerId,
                    @Param("skuId") String skuId);
}
