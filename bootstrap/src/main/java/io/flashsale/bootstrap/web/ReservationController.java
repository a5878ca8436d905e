package io.flashsale.bootstrap.web;

import io.flashsale.application.port.in.GetReservationUseCase;
import io.flashsale.application.port.in.ReserveStockCommand;
import io.flashsale.application.port.in.ReserveStockUseCase;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.shared.InvalidValueException;
import jakarta.validation.Valid;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/** The buyer's side. {@link BuyerId} comes first in every signature: no buyer, no look at the body. */
@RestController
public class ReservationController {

    static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    private final ReserveStockUseCase reserveStock;
    private final GetReservationUseCase getReservation;

    public ReservationController(ReserveStockUseCase reserveStock, GetReservationUseCase getReservation) {
        this.reserveStock = reserveStock;
        this.getReservation = getReservation;
    }

    @PostMapping("/api/v1/activities/{activityId}/reservations")
    public ResponseEntity<?> reserve(BuyerId buyer, @PathVariable String activityId,
                                     @RequestHeader(name = IDEMPOTENCY_KEY, required = false) String idempotencyKey,
                                     @Valid @RequestBody ReserveRequest request) {
        var command = new ReserveStockCommand(PathIds.activity(activityId), buyer,
                requestId(request.requestId(), idempotencyKey), request.toLines());
        return ReservationOutcomeResponses.of(reserveStock.reserve(command));
    }

    @GetMapping("/api/v1/reservations/{reservationId}")
    public ReservationResponse get(BuyerId buyer, @PathVariable String reservationId) {
        return getReservation.find(buyer, PathIds.reservation(reservationId))
                .map(ReservationResponse::of)
                .orElseThrow(PathIds::reservationNotFound);
    }

    /** The body's requestId or the Idempotency-Key header; both are fine when they agree. */
    private static RequestId requestId(String fromBody, String fromHeader) {
        if (fromHeader == null) {
            return fromBody == null ? null : new RequestId(fromBody);
        }
        if (fromBody != null && !fromBody.equals(fromHeader)) {
            throw new InvalidValueException("requestId", "differs from the Idempotency-Key header");
        }
        try {
            return new RequestId(fromHeader);
        } catch (InvalidValueException e) {
            throw new InvalidValueException(IDEMPOTENCY_KEY, "must be 1-64 characters of [A-Za-z0-9_-]");
        }
    }
}
