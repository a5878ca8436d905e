package io.flashsale.adapter.mysql;

import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;

import java.util.List;

/** MyBatis statements for activities; the SQL lives in ActivityDao.xml beside this interface. */
@Mapper
interface ActivityDao {

    void insertActivity(ActivityRow activity);

    void insertItems(@Param("items") List<ActivityItemRow> items);

    ActivityRow selectActivity(@Param("id") String id);

    List<ActivityItemRow> selectItems(@Param("activityId") String activityId);
}
