package io.flashsale.adapter.mysql;

import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;

import java.util.List;

/** Read-only sums over orders and stock; the SQL lives in SalesFiguresDao.xml beside this interface. */
@Mapper
interface SalesFiguresDao {

    List<SkuUnitsRow> selectSold(@Param("activityId") String activityId);

    List<SkuUnitsRow> selectStockFlow(@Param("activityId") String activityId);

    List<SkuUnitsRow> selectOrderedUnits(@Param("activityId") String activityId,
                                         @Param("statuses") List<String> statuses);

    List<StatusCountRow> selectOrderCounts(@Param("activityId") String activityId);
}
