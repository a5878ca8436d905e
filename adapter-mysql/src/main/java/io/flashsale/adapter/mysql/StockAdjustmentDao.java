package io.flashsale.adapter.mysql;

import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;

import java.util.List;

/** The audited stock adjustments; the SQL lives in StockAdjustmentDao.xml beside this interface. */
@Mapper
interface StockAdjustmentDao {

    /** The item's stock and sold, locked for the rest of the transaction; null when there is no such item. */
    ItemStockRow selectItemForUpdate(@Param("activityId") String activityId, @Param("skuId") String skuId);

    /** {@code stock = stock + delta} unless it falls below sold or passes {@code max}; the rows changed (0 or 1). */
    int addToStock(@Param("activityId") String activityId, @Param("skuId") String skuId, @Param("delta") long delta,
                   @Param("max") long max);

    void insertAdjustment(StockAdjustmentRow adjustment);

    /** The id the last insert on this connection made. */
    long selectLastInsertId();

    List<StockAdjustmentRow> selectByActivity(@Param("activityId") String activityId);
}
