package io.flashsale.adapter.mysql;

import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;

import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;

/** MyBatis statements for orders and the stock they take; the SQL lives in OrderDao.xml beside this interface. */
@Mapper
interface OrderDao {

    void insertLines(@Param("lines") List<OrderLineRow> lines);

    OrderRow selectOrder(@Param("reservationId") String reservationId);

    /** The request's one order, by uk_purchase_order_request; null when it has none. */
    OrderRow selectOrderByRequest(@Param("activityId") String activityId, @Param("buyerId") String buyerId,
                                  @Param("requestId") String requestId);

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

    /**
     * ORDERED -> PAID stamped {@code at}, while {@code judgedAt} (null: the database's clock) is before the payment
     * deadline; returns the rows changed.
     */
    int markPaid(@Param("reservationId") String reservationId, @Param("at") Instant at,
                 @Param("judgedAt") Instant judgedAt);

    /** Takes units off the buyer's purchase row unless it holds fewer; returns the rows changed (0 or 1). */
    int subtractFromPurchase(@Param("activityId") String activityId, @Param("buyerId") String buyerId,
                             @Param("skuId") String skuId, @Param("quantity") int quantity);

    /** Takes units off the SKU's sold count unless fewer are sold; returns the rows changed (0 or 1). */
    int subtractFromSold(@Param("activityId") String activityId, @Param("skuId") String skuId,
                         @Param("quantity") int quantity);

    // ---- a batch of orders: a fixed number of statements per batch, whatever its size ----

    /** The orders among {@code reservationIds} that exist. */
    List<OrderRow> selectOrders(@Param("reservationIds") List<String> reservationIds);

    /** Ids of one activity's orders in (after, before), ascending, at most max: one range of the primary key. */
    List<String> selectOrderIdsAfter(@Param("activityId") String activityId, @Param("after") String after,
                                     @Param("before") String before, @Param("max") int max);

    /**
     * Ids of the orders in [from, to) after {@code after} (from {@code from} when null), ascending, at most max: one
     * range of the primary key.
     */
    List<String> selectOrderIdsInRange(@Param("from") String from, @Param("to") String to,
                                       @Param("after") String after, @Param("max") int max);

    /** Ids of the activity's orders closed from ORDERED (CANCELLED, EXPIRED) whose last change is at or after since. */
    List<String> selectClosedOrderIdsSince(@Param("activityId") String activityId, @Param("since") Instant since);

    /** The orders that hold any of the given requests (at most one each, by {@code uk_purchase_order_request}). */
    List<OrderRow> selectRequestHolders(@Param("requests") List<RequestKey> requests);

    /**
     * Records reservations refused as their request's duplicate with the reservation whose order holds the request;
     * a row that exists (a second delivery of the batch) is left as it is.
     */
    void insertAliases(@Param("aliases") List<ReservationAliasRow> aliases);

    /** The reservation whose order holds the request of {@code reservationId}; null when it is no alias. */
    String selectAliasTarget(@Param("reservationId") String reservationId);

    /** The lines of the orders among {@code reservationIds}, by order and line index. */
    List<OrderLineRow> selectLinesOf(@Param("reservationIds") List<String> reservationIds);

    /** Every SKU the activities offer, with its effective per-user limit and the activity's payment timeout. */
    List<ItemTermsRow> selectItemTerms(@Param("activityIds") List<String> activityIds);

    /** Creates the purchase rows that do not exist yet, with 0 units, in one statement; {@code rows} in key order. */
    void createPurchaseRows(@Param("rows") List<PurchaseRow> rows);

    /** The purchase rows, locked, in primary-key order. */
    List<PurchaseRow> lockPurchases(@Param("rows") List<PurchaseRow> rows);

    /** The SKUs' rows (those that exist), locked, in primary-key order. */
    List<LockedItemRow> lockItems(@Param("items") List<SkuSaleRow> items);

    /** The SKUs' rows (those that exist) as last committed, without a lock, in primary-key order. */
    List<LockedItemRow> readItems(@Param("items") List<SkuSaleRow> items);

    /** Inserts the orders in one statement; a duplicate key fails it whole. */
    void insertOrders(@Param("orders") List<OrderRow> orders);

    /** Adds each row's units to its existing purchase row, in one statement. */
    void addToPurchases(@Param("rows") List<PurchaseRow> rows);

    /** The database's clock, UTC, as stored (milliseconds). */
    LocalDateTime selectUtcNow();

    /** Up to {@code max} ORDERED orders due at {@code judgedAt}, oldest deadline first, locked; others' skipped. */
    List<String> selectDueForUpdate(@Param("judgedAt") Instant judgedAt, @Param("max") int max);

    /** ORDERED -> EXPIRED for all of them, each owing the hot store its restore from {@code at}; returns rows changed. */
    int expireOrdered(@Param("reservationIds") List<String> reservationIds, @Param("at") Instant at);

    /** Takes each row's units off its purchase row unless it holds fewer; returns the rows changed. */
    int subtractFromPurchases(@Param("rows") List<PurchaseRow> rows);

    /** The hot store has nothing left to give back for these orders. */
    void clearRestoresDue(@Param("reservationIds") List<String> reservationIds);

    List<PendingRestoreRow> selectDueRestores(@Param("now") Instant now, @Param("max") int max);

    void clearRestoreDue(@Param("reservationId") String reservationId);

    void postponeRestoreDue(@Param("reservationId") String reservationId, @Param("retryAt") Instant retryAt);
}
