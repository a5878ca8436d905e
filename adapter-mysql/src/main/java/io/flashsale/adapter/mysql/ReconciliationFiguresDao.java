package io.flashsale.adapter.mysql;

import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;

import java.util.List;

/** What reconciliation reads of one SKU; the SQL lives in ReconciliationFiguresDao.xml beside this interface. */
@Mapper
interface ReconciliationFiguresDao {

    /** Null when the activity has no such SKU. */
    ItemStockRow selectItem(@Param("activityId") String activityId, @Param("skuId") String skuId);

    /** Buyers holding units of the SKU in placed orders; rows with 0 units are left out. */
    List<BuyerUnitsRow> selectPurchases(@Param("activityId") String activityId, @Param("skuId") String skuId);

    /** The buyers among {@code buyerIds} holding units of the SKU in placed orders, with their units. */
    List<BuyerUnitsRow> selectPurchasesOf(@Param("activityId") String activityId, @Param("skuId") String skuId,
                                          @Param("buyerIds") List<String> buyerIds);

    /** The orders among {@code reservationIds}, in any status. */
    List<SettlementRow> selectSettlements(@Param("reservationIds") List<String> reservationIds);

    /**
     * The reservations among {@code reservationIds} the order pipeline refused as their request's duplicate (ADR 61),
     * as refusals: status FAILED, {@code placed_at} when refused, never ordered.
     */
    List<SettlementRow> selectRefusedDuplicates(@Param("reservationIds") List<String> reservationIds);

    /**
     * Units of the SKU in the orders whose reservation id lies in [{@code from}, {@code to}) and whose status is one of
     * {@code statuses}: a range of the primary key, the orders of one slice of a sale and no other.
     */
    long selectUnitsIn(@Param("skuId") String skuId, @Param("from") String from, @Param("to") String to,
                       @Param("statuses") List<String> statuses);

    /** As {@link #selectUnitsIn}, per buyer; buyers without units are left out. */
    List<BuyerUnitsRow> selectPurchasesIn(@Param("skuId") String skuId, @Param("from") String from,
                                          @Param("to") String to, @Param("statuses") List<String> statuses);

    /** As {@link #selectPurchasesIn}, of the buyers among {@code buyerIds} only, found by their own orders. */
    List<BuyerUnitsRow> selectPurchasesOfIn(@Param("activityId") String activityId, @Param("skuId") String skuId,
                                            @Param("from") String from, @Param("to") String to,
                                            @Param("statuses") List<String> statuses,
                                            @Param("buyerIds") List<String> buyerIds);

    /**
     * Orders whose reservation id lies in [{@code from}, {@code to}) (an activity's, or one slice's) that gave their
     * units back here and still owe the hot store its half.
     */
    List<String> selectRestoresOwed(@Param("from") String from, @Param("to") String to);

    List<AdjustmentFigureRow> selectAdjustments(@Param("activityId") String activityId, @Param("skuId") String skuId);
}
