package io.flashsale.adapter.mysql;

import io.flashsale.application.reservation.port.out.ReservationAliasPort;
import io.flashsale.domain.reservation.ReservationId;

import java.util.Optional;

/** {@code reservation_alias}, written by the pipeline's refusal of a request's duplicate ({@link BatchPlacement}). */
public class MysqlReservationAliases implements ReservationAliasPort {

    private final OrderDao dao;

    MysqlReservationAliases(OrderDao dao) {
        this.dao = dao;
    }

    @Override
    public Optional<ReservationId> orderReservationOf(ReservationId reservationId) {
        return Optional.ofNullable(dao.selectAliasTarget(reservationId.value())).map(ReservationId::new);
    }
}
