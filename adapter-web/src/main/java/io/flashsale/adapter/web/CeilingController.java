package io.flashsale.adapter.web;

import io.flashsale.domain.reservation.BuyerId;
import jakarta.validation.Valid;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import java.net.URI;
import java.util.List;

/**
 * The load harness's yardstick: reads what the reservation endpoint reads (buyer header, key header, validated
 * body) and answers a fixed 202 without calling anything, so the harness can tell the server stack's ceiling from
 * the reservation's own cost. Off unless {@code flashsale.harness.ceiling-endpoint} is true.
 */
@RestController
@ConditionalOnBooleanProperty("flashsale.harness.ceiling-endpoint")
public class CeilingController {

    public static final String PATH = "/harness/ceiling/reservations";
    static final String ACTIVITY = "ceiling";
    private static final String ID = ACTIVITY + ".0190a6b0-0000-7000-8000-000000000000";
    static final ResponseEntity<ReservationAcceptedResponse> ACCEPTED = ResponseEntity
            .status(HttpStatus.ACCEPTED).location(URI.create("/api/v1/reservations/" + ID))
            .body(new ReservationAcceptedResponse(ID, ACTIVITY, "RESERVED", List.of(new ReservationLineResponse("unit", 1))));

    @PostMapping(PATH)
    public ResponseEntity<ReservationAcceptedResponse> reserve(
            BuyerId buyer, @RequestHeader(name = ReservationController.IDEMPOTENCY_KEY, required = false) String key,
            @Valid @RequestBody ReserveRequest request) {
        return ACCEPTED;
    }
}
