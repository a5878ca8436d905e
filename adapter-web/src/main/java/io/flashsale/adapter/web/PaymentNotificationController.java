package io.flashsale.adapter.web;

import io.flashsale.application.order.model.PaymentNotification;
import io.flashsale.application.order.model.ProviderPaymentResult;
import io.flashsale.application.order.port.in.ConfirmPaymentUseCase;
import io.flashsale.domain.order.PaymentReference;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * The payment provider's side: a notification signed with the shared secret ({@link PaymentNotificationFilter})
 * pays the order. Repeating it is harmless: every delivery of one payment gets the same 200.
 */
@RestController
public class PaymentNotificationController {

    static final String PATH = "/api/v1/payments/notifications";

    private final ConfirmPaymentUseCase confirmPayment;

    public PaymentNotificationController(ConfirmPaymentUseCase confirmPayment) {
        this.confirmPayment = confirmPayment;
    }

    @PostMapping(PATH)
    public ResponseEntity<?> confirmPayment(HttpServletRequest http, @Valid @RequestBody PaymentNotificationRequest request) {
        if (http.getAttribute(PaymentNotificationFilter.VERIFIED) == null) {
            // Reached without the filter's check (a path spelt in a way it did not recognise): never pay unsigned.
            return Problems.response(Problems.of(ProblemCode.SIGNATURE_INVALID, "the notification was not verified"));
        }
        ReservationId id = new ReservationId(request.reservationId());
        PaymentReference reference = new PaymentReference(request.paymentReference());
        return switch (confirmPayment.confirm(new PaymentNotification(id, reference, request.paidAt()))) {
            case ProviderPaymentResult.Paid paid ->
                    ResponseEntity.ok(PaymentNotificationResponse.of(id.value(), reference, paid.order()));
            case ProviderPaymentResult.AlreadyPaid paid ->
                    ResponseEntity.ok(PaymentNotificationResponse.of(id.value(), reference, paid.order()));
            case ProviderPaymentResult.Conflict conflict -> refusal(ProblemCode.PAYMENT_CONFLICT,
                    "the order is paid by another payment; this one is recorded for a refund", conflict.order().status());
            case ProviderPaymentResult.Refused refused -> refusal(ProblemCode.PAYMENT_REFUSED,
                    "the order can no longer be paid; the payment is recorded for a refund", refused.status());
            case ProviderPaymentResult.NotYetOrdered notYet -> ReservationChangeProblems.notPayable(ReservationStatus.RESERVED);
            case ProviderPaymentResult.NotFound notFound -> throw PathIds.reservationNotFound();
        };
    }

    private static ResponseEntity<ProblemDetail> refusal(ProblemCode code, String detail, ReservationStatus status) {
        ProblemDetail problem = Problems.of(code, detail);
        problem.setProperty(ReservationChangeProblems.RESERVATION_STATUS, status.name());
        return Problems.response(problem);
    }
}
