package io.flashsale.adapter.mysql;

import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;

import java.time.Instant;
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

    /**
     * ORDERED -> {@code status} (PAID, CANCELLED or EXPIRED) with its moment in the status's own column; returns the
     * rows changed: 1 for the one caller that wins, 0 for every other.
     *
     * @param restoreDueAt when the hot store's restore is due; null when the hot store owes none
     */
    int closeOrdered(@Param("reservationId") String reservationId, @Param("status") String status,
                     @Param("at") Instant at, @Param("restoreDueAt") Instant restoreDueAt);

    /** The ORDERED order past its payment deadline first, locked; rows other transactions hold are skipped. */
    String selectNextDueForUpdate(@Param("now") Instant now);

    /** Takes units off the buyer's purchase row unless it holds fewer; returns the rows changed (0 or 1). */
    int subtractFromPurchase(@Param("activityId") String activityId, @Param("buyerId") String buyerId,
                             @Param("skuId") String skuId, @Param("quantity") int quantity);

    /** Takes units off the SKU's sold count unless fewer are sold; returns the rows changed (0 or 1). */
    int subtractFromSold(@Param("activityId") String activityId, @Param("skuId") String skuId,
                         @Param("quantity") int quantity);

    List<PendingRestoreRow> selectDueRestores(@Param("now") Instant now, @Param("max") int max);

    void clearRestoreDue(@Param("reservationId") String reservationId);

    void postponeRestoreDue(@Param("reservationId") String reservationId, @Param("retryAt") Instant retryAt);
}
