package io.flashsale.adapter.web;

import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.shared.Identifier;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import java.util.List;

/** Body of {@code POST /api/v1/activities/{id}/reservations}; repeated SKUs are refused by the domain. */
public record ReserveRequest(
        @Pattern(regexp = ApiIds.PATTERN, message = ApiIds.MESSAGE) String requestId,
        @NotNull @Size(min = 1, max = Reservation.MAX_LINES) List<@NotNull @Valid ReservationLineRequest> items) {

    /**
     * True exactly when the constraints above hold, checked by hand for {@link LeanReservationFilter}; a request
     * that fails goes to the controller, whose Bean Validation names every broken field.
     */
    boolean isPlainlyValid() {
        if (requestId != null && !Identifier.isValid(requestId)
                || items == null || items.isEmpty() || items.size() > Reservation.MAX_LINES) {
            return false;
        }
        for (ReservationLineRequest line : items) {
            if (line == null || !line.isPlainlyValid()) {
                return false;
            }
        }
        return true;
    }

    List<ReservationLine> toLines() {
        return items.stream().map(ReservationLineRequest::toLine).toList();
    }
}
