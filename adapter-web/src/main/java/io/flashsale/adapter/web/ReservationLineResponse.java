package io.flashsale.adapter.web;

import io.flashsale.domain.reservation.Reservation;

import java.util.List;

public record ReservationLineResponse(String skuId, int quantity) {

    static List<ReservationLineResponse> of(Reservation reservation) {
        return reservation.lines().stream()
                .map(line -> new ReservationLineResponse(line.skuId().value(), line.quantity()))
                .toList();
    }
}
