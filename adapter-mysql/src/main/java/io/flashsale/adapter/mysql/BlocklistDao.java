package io.flashsale.adapter.mysql;

import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;

import java.util.List;

/** The blocklist and its audit; the SQL lives in BlocklistDao.xml beside this interface. */
@Mapper
interface BlocklistDao {

    List<BlocklistRow> selectEntries();

    /** Inserts the entry unless its kind and value are listed; the rows inserted (0 or 1). */
    int insertEntry(BlocklistRow entry);

    /** The rows deleted (0 or 1). */
    int deleteEntry(@Param("kind") String kind, @Param("value") String value);

    void insertChange(BlocklistRow change);

    List<BlocklistRow> selectChanges();
}
