package io.flashsale.adapter.web;

import io.flashsale.application.reservation.model.ReserveStockCommand;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationStatus;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import org.junit.jupiter.api.Test;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

class LeanReservationFilterTest {

    private static final String PLAIN = "{\"items\":[{\"skuId\":\"sku-1\",\"quantity\":1}]}";
    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private final AtomicReference<ReserveStockCommand> decided = new AtomicReference<>();
    private final LeanReservationFilter filter = new LeanReservationFilter(command -> {
        decided.set(command);
        return new ReservationOutcome.Reserved(new Reservation(ReservationId.of(command.activityId(), "0190abc"),
                command.activityId(), command.buyerId(), new RequestId("0190abc"), command.lines(), ReservationStatus.RESERVED,
                Instant.parse("2030-01-01T00:00:00Z")));
    }, JSON, new ResponseEntityWriter(List.of(new JacksonJsonHttpMessageConverter(JSON))),
            (request, response, handler, e) -> null, false,
            new io.flashsale.adapter.web.security.ClientAddressResolver(false, false),
            io.flashsale.adapter.web.security.TrustedHeaderBuyerAuthenticator.withoutSecret(),
            io.flashsale.adapter.web.security.AttemptOriginResolver.deviceFromHeader("X-Device-Id"));

    @Test
    void givenAPlainAttempt_whenFiltered_thenDecidedHereAndAnswered202WithoutTheController() throws Exception {
        var response = new MockHttpServletResponse();
        boolean passedOn = filter(attempt("/api/v1/activities/act-1/reservations", "alice", PLAIN), response);

        assertThat(passedOn).isFalse();
        assertThat(decided.get().activityId().value()).isEqualTo("act-1");
        assertThat(decided.get().buyerId()).isEqualTo(new BuyerId("alice"));
        assertThat(decided.get().requestId()).isNull();
        assertThat(response.getStatus()).isEqualTo(202);
        assertThat(response.getHeader("Location")).isEqualTo("/api/v1/reservations/act-1.0190abc");
        assertThat(response.getContentType()).isEqualTo("application/json");
        assertThat(response.getContentAsString()).contains("\"reservationId\":\"act-1.0190abc\"");
    }

    @Test
    void givenAnAttemptThatIsNotPlain_whenFiltered_thenTheControllerGetsItWithItsBodyUntouched() throws Exception {
        List<MockHttpServletRequest> notPlain = new ArrayList<>();
        notPlain.add(attempt("/api/v1/activities/act-1/reservations", "bad buyer", PLAIN));
        notPlain.add(attempt("/api/v1/activities/act-1/reservations", "alice", "{\"items\":[]}"));
        notPlain.add(attempt("/api/v1/activities/act-1/reservations", "alice", "null"));
        notPlain.add(attempt("/api/v1/activities/act-1/reservations", "alice", "{\"items\":[{\"skuId\":\"sku-1\"}]}"));
        notPlain.add(attempt("/api/v1/activities/act-1/reservations", "alice", PLAIN + " x"));
        notPlain.add(attempt("/api/v1/activities/act-1/reservations", "alice",
                "{\"items\":[{\"skuId\":\"sku-1\",\"quantity\":1},{\"skuId\":\"sku-1\",\"quantity\":1}]}"));
        MockHttpServletRequest charset = attempt("/api/v1/activities/act-1/reservations", "alice", PLAIN);
        charset.setContentType("application/json;charset=UTF-8");
        notPlain.add(charset);
        MockHttpServletRequest negotiated = attempt("/api/v1/activities/act-1/reservations", "alice", PLAIN);
        negotiated.addHeader("Accept", "application/json");
        notPlain.add(negotiated);
        MockHttpServletRequest keyed = attempt("/api/v1/activities/act-1/reservations", "alice", PLAIN);
        keyed.addHeader("Idempotency-Key", "not a key");
        notPlain.add(keyed);

        for (MockHttpServletRequest request : notPlain) {
            var seen = new AtomicReference<String>();
            var response = new MockHttpServletResponse();
            filter.doFilter(request, response, (req, res) -> seen.set(
                    new String(req.getInputStream().readAllBytes(), StandardCharsets.UTF_8)));

            String sent = new String(request.getContentAsByteArray(), StandardCharsets.UTF_8);
            assertThat(seen.get()).as(sent).isEqualTo(sent);
            assertThat(decided.get()).isNull();
        }
    }

    @Test
    void givenOtherPaths_whenAskedForTheActivity_thenOnlyAPlainReservationPathHasOne() {
        assertThat(LeanReservationFilter.activityId("/api/v1/activities/act-1/reservations")).isEqualTo("act-1");
        for (String path : List.of("/api/v1/activities//reservations", "/api/v1/activities/a/b/reservations",
                "/api/v1/activities/a%2Fb/reservations", "/api/v1/activities/a;x=1/reservations",
                "/api/v1/activities/act-1/reservations/", "/api/v1/activities/act-1", "/api/v1/reservations")) {
            assertThat(LeanReservationFilter.activityId(path)).as(path).isNull();
        }
    }

    @Test
    void givenManyBodies_whenCheckedByHand_thenValidExactlyWhenBeanValidationFindsNothing() {
        Validator validator = Validation.buildDefaultValidatorFactory().getValidator();
        List<String> ids = Arrays.asList(null, "", "a", "sku_1-A", "x".repeat(64), "x".repeat(65), "bad id", "é");
        List<Integer> quantities = Arrays.asList(null, -1, 0, 1, 1000, 1001);
        int checked = 0;
        for (String requestId : ids) {
            for (String sku : ids) {
                for (Integer quantity : quantities) {
                    for (int lines : new int[] {0, 1, 50, 51}) {
                        List<ReservationLineRequest> items = new ArrayList<>();
                        for (int i = 0; i < lines; i++) {
                            items.add(new ReservationLineRequest(sku, quantity));
                        }
                        for (List<ReservationLineRequest> list : Arrays.asList(items, null, withNull(items))) {
                            var request = new ReserveRequest(requestId, list);
                            assertThat(request.isPlainlyValid()).as("%s", request)
                                    .isEqualTo(validator.validate(request).isEmpty());
                            checked++;
                        }
                    }
                }
            }
        }
        assertThat(checked).isEqualTo(8 * 8 * 6 * 4 * 3);
    }

    private static List<ReservationLineRequest> withNull(List<ReservationLineRequest> items) {
        List<ReservationLineRequest> copy = new ArrayList<>(items);
        copy.add(null);
        return copy;
    }

    private boolean filter(MockHttpServletRequest request, MockHttpServletResponse response) throws Exception {
        var passedOn = new AtomicReference<>(false);
        filter.doFilter(request, response, (req, res) -> passedOn.set(true));
        return passedOn.get();
    }

    private static MockHttpServletRequest attempt(String path, String buyer, String body) {
        var request = new MockHttpServletRequest("POST", path);
        request.addHeader("X-User-Id", buyer);
        request.setContentType("application/json");
        request.setContent(body.getBytes(StandardCharsets.UTF_8));
        return request;
    }
}
