package io.flashsale.adapter.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.flashsale.domain.reservation.StatusTimes;

import java.time.Instant;

/** When the reservation reached each status it went through; a status it never reached is absent. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StatusTimesResponse(Instant reservedAt, Instant orderedAt, Instant paidAt, Instant cancelledAt,
                                  Instant expiredAt, Instant failedAt) {

    static StatusTimesResponse of(StatusTimes times) {
        return new StatusTimesResponse(times.reservedAt(), times.orderedAt(), times.paidAt(), times.cancelledAt(),
                times.expiredAt(), times.failedAt());
    }
}
