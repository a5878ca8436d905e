package io.flashsale.adapter.mysql;

import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;

import java.time.Instant;
import java.util.List;

/** MyBatis statements for activities; the SQL lives in ActivityDao.xml beside this interface. */
@Mapper
interface ActivityDao {

    void insertActivity(ActivityRow activity);

    void insertItems(@Param("items") List<ActivityItemRow> items);

    ActivityRow selectActivity(@Param("id") String id);

    int updatePaused(@Param("id") String id, @Param("paused") boolean paused);

    int updateWindow(@Param("id") String id, @Param("fromStartsAt") Instant fromStartsAt,
                     @Param("fromEndsAt") Instant fromEndsAt, @Param("startsAt") Instant startsAt,
                     @Param("endsAt") Instant endsAt);

    List<ActivityItemRow> selectItems(@Param("activityId") String activityId);

    List<ActivityRow> selectUnarchivedOverlapping(@Param("from") Instant from, @Param("to") Instant to);

    List<ActivityRow> selectUnarchived(@Param("limit") int limit);

    List<String> selectEndedUnarchivedIds(@Param("now") Instant now);

    /** Null when there is no such activity. */
    ArchiveRow selectArchive(@Param("id") String id);

    /** 1 when marked now, 0 when already archived, unknown, or not ended by {@code at}. */
    int markArchived(@Param("id") String id, @Param("at") Instant at);

    /** 1 when the first load is recorded now, 0 when it was recorded before. */
    int recordLoad(@Param("id") String id);

    int countLoads(@Param("id") String id);

    List<ItemStockRow> selectItemStock(@Param("activityId") String activityId);
}
