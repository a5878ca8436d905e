package io.flashsale.adapter.mysql;

import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;

import java.util.List;

/** The kept reconciliation reports; the SQL lives in ReconciliationReportDao.xml beside this interface. */
@Mapper
interface ReconciliationReportDao {

    void insertReport(ReconciliationReportRow report);

    /** Newest first. */
    List<ReconciliationReportRow> selectRecent(@Param("activityId") String activityId, @Param("max") int max);
}
