package io.flashsale.adapter.web;

import io.flashsale.adapter.web.security.NotificationSignature;
import io.flashsale.application.order.model.PaymentNotification;
import io.flashsale.application.order.model.ProviderPaymentResult;
import io.flashsale.application.order.port.in.ConfirmPaymentUseCase;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.json.ProblemDetailJacksonMixin;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import tools.jackson.databind.json.JsonMapper;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** The notification endpoint behind its filter, and without it: only a request the filter verified can pay. */
class PaymentNotificationControllerTest {

    private static final Instant NOW = Instant.parse("2030-06-01T10:20:00Z");
    private static final String BODY = "{\"reservationId\":\"sale-1.0abc\",\"paymentReference\":\"pay-1\","
            + "\"paidAt\":\"2030-06-01T10:19:58Z\"}";
    private static final NotificationSignature SIGNATURE = new NotificationSignature("secret", Duration.ofMinutes(5),
            Clock.fixed(NOW, ZoneOffset.UTC));

    private final List<PaymentNotification> confirmed = new ArrayList<>();
    private final ConfirmPaymentUseCase confirmPayment = notification -> {
        confirmed.add(notification);
        return new ProviderPaymentResult.Paid(paidOrder(notification.reservationId()));
    };
    private final CompleteProblemWriter problems = new CompleteProblemWriter(JsonMapper.builder()
            .addMixIn(ProblemDetail.class, ProblemDetailJacksonMixin.class).build());

    private MockMvc api(Optional<NotificationSignature> signature) {
        return MockMvcBuilders.standaloneSetup(new PaymentNotificationController(confirmPayment))
                .setControllerAdvice(new ApiExceptionHandler(problems))
                .addFilters(new PaymentNotificationFilter(signature, problems))
                .build();
    }

    @Test
    void givenASignedNotification_whenPosted_thenTheUseCaseHearsItAndTheAnswerIsPaid() throws Exception {
        api(Optional.of(SIGNATURE)).perform(post(PaymentNotificationController.PATH)
                        .contentType(MediaType.APPLICATION_JSON).content(BODY)
                        .header(NotificationSignature.HEADER, SIGNATURE.header(NOW.getEpochSecond(), bytes(BODY))))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.status").value("PAID"))
                .andExpect(jsonPath("$.paymentReference").value("pay-1"));

        assertThat(confirmed).extracting(notification -> notification.reference().value()).containsExactly("pay-1");
    }

    @Test
    void givenATamperedBody_whenPosted_then401AndTheUseCaseNeverHearsIt() throws Exception {
        api(Optional.of(SIGNATURE)).perform(post(PaymentNotificationController.PATH)
                        .contentType(MediaType.APPLICATION_JSON).content(BODY.replace("pay-1", "pay-2"))
                        .header(NotificationSignature.HEADER, SIGNATURE.header(NOW.getEpochSecond(), bytes(BODY))))
                .andExpect(status().isUnauthorized())
                .andExpect(jsonPath("$.code").value("SIGNATURE_INVALID"));

        assertThat(confirmed).isEmpty();
    }

    @Test
    void givenNoSecret_whenPosted_then503AndTheUseCaseNeverHearsIt() throws Exception {
        api(Optional.empty()).perform(post(PaymentNotificationController.PATH)
                        .contentType(MediaType.APPLICATION_JSON).content(BODY)
                        .header(NotificationSignature.HEADER, SIGNATURE.header(NOW.getEpochSecond(), bytes(BODY))))
                .andExpect(status().isServiceUnavailable())
                .andExpect(jsonPath("$.code").value("PAYMENT_NOTIFICATIONS_DISABLED"));

        assertThat(confirmed).isEmpty();
    }

    @Test
    void givenARequestTheFilterDidNotVerify_whenItReachesTheController_then401AndNothingIsPaid() throws Exception {
        MockMvc withoutTheFilter = MockMvcBuilders.standaloneSetup(new PaymentNotificationController(confirmPayment))
                .setControllerAdvice(new ApiExceptionHandler(problems)).build();

        withoutTheFilter.perform(post(PaymentNotificationController.PATH)
                        .contentType(MediaType.APPLICATION_JSON).content(BODY))
                .andExpect(status().isUnauthorized())
                .andExpect(jsonPath("$.code").value("SIGNATURE_INVALID"));

        assertThat(confirmed).isEmpty();
    }

    private static byte[] bytes(String body) {
        return body.getBytes(StandardCharsets.UTF_8);
    }

    private static Order paidOrder(ReservationId id) {
        Reservation reservation = new Reservation(id, new ActivityId("sale-1"), new BuyerId("alice"),
                new RequestId("r-1"), List.of(new ReservationLine(new SkuId("a"), 1)), ReservationStatus.RESERVED,
                NOW.minusSeconds(60));
        return Order.placed(reservation, NOW.minusSeconds(59)).closed(ReservationStatus.PAID, NOW);
    }
}
