package io.flashsale.adapter.mysql;

import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;

import java.util.List;

/** Which reservations have an order row; the SQL lives in SettledReservationsDao.xml beside this interface. */
@Mapper
interface SettledReservationsDao {

    List<String> selectOrdered(@Param("reservationIds") List<String> reservationIds);
}
