package io.flashsale.adapter.mysql;

import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;

import java.util.List;

/** Stock transfers between a sale's slices; the SQL lives in StockTransferDao.xml beside this interface. */
@Mapper
interface StockTransferDao {

    void insertTransfer(StockTransferRow transfer);

    /** The id the last insert on this connection made. */
    long selectLastInsertId();

    /** Moves the row to {@code state} and {@code moved} only while it is still in {@code fromState}: 1, else 0. */
    int advance(@Param("id") long id, @Param("fromState") String fromState, @Param("state") String state,
                @Param("moved") long moved);

    /** Null when there is no such transfer. */
    StockTransferRow selectTransfer(@Param("id") long id);

    List<StockTransferRow> selectUnfinished(@Param("afterId") long afterId, @Param("limit") int limit);

    List<StockTransferRow> selectByActivity(@Param("activityId") String activityId);
}
