package io.flashsale.adapter.mysql;

import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;

import java.util.List;

/** MyBatis statements for orders and the stock they take; the SQL lives in OrderDao.xml beside this interface. */
@Mapper
interface OrderDao {

    void insertOrder(OrderRow order);

    void insertLines(@Param("lines") List<OrderLineRow> lines);

    OrderRow selectOrder(@Param("reservationId") String reservationId);

    List<OrderLineRow> selectLines(@Param("reservationId") String reservationId);

    /** The SKUs among {@code skuIds} that the activity offers, each with its effective per-user limit. */
    List<ItemLimitRow> selectItemLimits(@Param("activityId") String activityId, @Param("skuIds") List<String> skuIds);

    /** Creates the buyer's purchase rows that do not exist yet, with 0 units. */
    void createPurchases(@Param("activityId") String activityId, @Param("buyerId") String buyerId,
                         @Param("skuIds") List<String> skuIds);

    /** Adds units to the buyer's purchase row unless that would pass the limit; returns the rows changed (0 or 1). */
    int addToPurchase(@Param("activityId") String activityId, @Param("buyerId") String buyerId,
                      @Param("skuId") String skuId, @Param("quantity") int quantity, @Param("limit") int limit);

    /** Adds units to the SKU's sold count unless fewer are left; returns the rows changed (0 or 1). */
    int addToSold(@Param("activityId") String activityId, @Param("skuId") String skuId,
                  @Param("quantity") int quantity);

    void insertStockFlows(@Param("flows") List<StockFlowRow> flows);
}
