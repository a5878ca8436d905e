package io.flashsale.adapter.web;

import io.flashsale.adapter.web.security.BuyerConfirmedPayment;
import io.flashsale.adapter.web.security.ClientAddress;
import io.flashsale.application.order.model.CancellationResult;
import io.flashsale.application.order.model.PaymentResult;
import io.flashsale.application.order.port.in.CancelReservationUseCase;
import io.flashsale.application.order.port.in.PayReservationUseCase;
import io.flashsale.application.reservation.model.AttemptOrigin;
import io.flashsale.application.reservation.model.ReservationView;
import io.flashsale.application.reservation.model.ReserveStockCommand;
import io.flashsale.application.reservation.port.in.GetReservationUseCase;
import io.flashsale.application.reservation.port.in.ReserveStockUseCase;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.StatusTimes;
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
    private final PayReservationUseCase payReservation;
    private final CancelReservationUseCase cancelReservation;

    public ReservationController(ReserveStockUseCase reserveStock, GetReservationUseCase getReservation,
                                 PayReservationUseCase payReservation, CancelReservationUseCase cancelReservation) {
        this.reserveStock = reserveStock;
        this.getReservation = getReservation;
        this.payReservation = payReservation;
        this.cancelReservation = cancelReservation;
    }

    @PostMapping("/api/v1/activities/{activityId}/reservations")
    public ResponseEntity<?> reserve(BuyerId buyer, ClientAddress client, AttemptOrigin origin,
                                     @PathVariable String activityId,
                                     @RequestHeader(name = IDEMPOTENCY_KEY, required = false) String idempotencyKey,
                                     @Valid @RequestBody ReserveRequest request) {
        return ReservationOutcomeResponses.of(
                reserveStock.reserve(command(activityId, buyer, client, origin, idempotencyKey, request)));
    }

    /** The attempt as the use case takes it; shared with {@link LeanReservationFilter}, so both read it alike. */
    static ReserveStockCommand command(String activityId, BuyerId buyer, ClientAddress client, AttemptOrigin origin,
                                       String idempotencyKey, ReserveRequest request) {
        return new ReserveStockCommand(PathIds.activity(activityId), buyer,
                requestId(request.requestId(), idempotencyKey), request.toLines(), client.value(), origin);
    }

    @GetMapping("/api/v1/reservations/{reservationId}")
    public ReservationResponse get(BuyerId buyer, @PathVariable String reservationId) {
        ReservationId id = PathIds.reservation(reservationId);
        return getReservation.view(buyer, id)
                .map(view -> ReservationResponse.of(view, id))
                .orElseThrow(PathIds::reservationNotFound);
    }

    /**
     * ORDERED -> PAID on the buyer's word; repeating it is harmless. 200 with the reservation as GET shows it. Off
     * unless buyers may confirm their own payments ({@link BuyerConfirmedPayment}).
     */
    @BuyerConfirmedPayment
    @PostMapping("/api/v1/reservations/{reservationId}/payment")
    public ResponseEntity<?> pay(BuyerId buyer, @PathVariable String reservationId) {
        ReservationId id = PathIds.reservation(reservationId);
        return switch (payReservation.pay(buyer, id)) {
            case PaymentResult.Paid paid -> ResponseEntity.ok(settled(buyer, id, paid.reservation()));
            case PaymentResult.AlreadyPaid paid -> ResponseEntity.ok(settled(buyer, id, paid.reservation()));
            case PaymentResult.NotPayable refused -> ReservationChangeProblems.notPayable(refused.status());
            case PaymentResult.NotFound notFound -> throw PathIds.reservationNotFound();
        };
    }

    /** RESERVED or ORDERED -> CANCELLED, the units back exactly once; repeating it is harmless. */
    @PostMapping("/api/v1/reservations/{reservationId}/cancellation")
    public ResponseEntity<?> cancel(BuyerId buyer, @PathVariable String reservationId) {
        ReservationId id = PathIds.reservation(reservationId);
        return switch (cancelReservation.cancel(buyer, id)) {
            case CancellationResult.Cancelled cancelled ->
                    ResponseEntity.ok(settled(buyer, id, cancelled.reservation()));
            case CancellationResult.AlreadyCancelled cancelled ->
                    ResponseEntity.ok(settled(buyer, id, cancelled.reservation()));
            case CancellationResult.NotCancellable refused -> ReservationChangeProblems.notCancellable(refused.status());
            case CancellationResult.NotFound notFound -> throw PathIds.reservationNotFound();
        };
    }

    /**
     * The reservation in the final status a payment or cancellation just gave it, read back for its times. Final
     * statuses do not change, so the read shows what the call decided. {@code asked} differs from the decided one's
     * id when it is an alias of the request's order (ADR 61).
     */
    private ReservationResponse settled(BuyerId buyer, ReservationId asked, Reservation decided) {
        ReservationView view = getReservation.view(buyer, decided.id())
                .filter(read -> read.reservation().status() == decided.status())
                .orElseGet(() -> new ReservationView(decided, StatusTimes.reservedAt(decided.reservedAt()), null));
        return ReservationResponse.of(view, asked);
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
