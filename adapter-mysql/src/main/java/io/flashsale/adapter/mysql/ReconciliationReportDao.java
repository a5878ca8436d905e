package io.flashsale.adapter.mysql;

import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;

import java.time.Instant;
import java.util.List;

/** The kept reconciliation reports; the SQL lives in ReconciliationReportDao.xml beside this interface. */
@Mapper
interface ReconciliationReportDao {

    void insertReport(ReconciliationReportRow report);

    /** Newest first. */
    List<ReconciliationReportRow> selectRecent(@Param("activityId") String activityId, @Param("max") int max);

    /** Per SKU the newest NEEDS_REVIEW report still open, in SKU order. */
    List<ReconciliationReportRow> selectAwaitingReview(@Param("activityId") String activityId);

    /** @return the open NEEDS_REVIEW reports of the SKU this closed */
    int closeReviews(@Param("activityId") String activityId, @Param("skuId") String skuId,
                     @Param("closedBy") String closedBy, @Param("closedAt") Instant closedAt);
}
