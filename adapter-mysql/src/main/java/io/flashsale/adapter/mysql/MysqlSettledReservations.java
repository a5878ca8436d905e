package io.flashsale.adapter.mysql;

import io.flashsale.application.reservation.port.out.SettledReservationsPort;
import io.flashsale.domain.reservation.ReservationId;

import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** A reservation is settled once {@code purchase_order} has its row, whatever the order's status. */
public class MysqlSettledReservations implements SettledReservationsPort {

    /** Ids per query: keeps each statement and its IN list small. */
    static final int CHUNK = 500;

    private final SettledReservationsDao dao;

    MysqlSettledReservations(SettledReservationsDao dao) {
        this.dao = dao;
    }

    @Override
    public Set<ReservationId> unsettled(Collection<ReservationId> reservationIds) {
        List<String> asked = reservationIds.stream().map(ReservationId::value).distinct().toList();
        Set<String> ordered = new HashSet<>();
        for (int from = 0; from < asked.size(); from += CHUNK) {
            ordered.addAll(dao.selectOrdered(asked.subList(from, Math.min(asked.size(), from + CHUNK))));
        }
        Set<ReservationId> unsettled = new LinkedHashSet<>();
        for (String id : asked) {
            if (!ordered.contains(id)) {
                unsettled.add(new ReservationId(id));
            }
        }
        return unsettled;
    }
}
