package io.flashsale.adapter.mysql;

import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;

import java.time.Instant;

/** The provider's payments; the SQL lives in PaymentDao.xml beside this interface. */
@Mapper
interface PaymentDao {

    /**
     * ORDERED -> PAID under the reference, stamped {@code at}, while {@code judgedAt} (null: the database's clock) is
     * before the deadline; returns the rows changed.
     */
    int markPaid(@Param("reservationId") String reservationId, @Param("reference") String reference,
                 @Param("providerPaidAt") Instant providerPaidAt, @Param("at") Instant at,
                 @Param("judgedAt") Instant judgedAt);

    String selectReference(@Param("reservationId") String reservationId);

    void upsertRefused(@Param("refused") RefusedPaymentRow refused);
}
