package io.flashsale.adapter.web.logging;

import io.flashsale.adapter.web.security.BuyerAuthenticator;
import io.flashsale.domain.reservation.BuyerId;
import jakarta.servlet.http.HttpServletRequest;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class LogContextFilterTest {

    private final LogContextFilter filter = new LogContextFilter(true);

    @Test
    void givenAReservationOfABuyer_whenHandled_thenTheLinesLoggedMeanwhileCarryAllFourIds() throws Exception {
        var request = new MockHttpServletRequest("POST", "/api/v1/reservations/double-11.0abc123/payment");
        request.addHeader("X-User-Id", "alice");
        request.addHeader("X-Request-Id", "req-42");
        var response = new MockHttpServletResponse();

        Map<String, String> seen = handle(request, response);

        assertThat(seen).containsEntry("requestId", "req-42").containsEntry("buyerId", "alice")
                .containsEntry("reservationId", "double-11.0abc123").containsEntry("activityId", "double-11");
        assertThat(response.getHeader("X-Request-Id")).isEqualTo("req-42");
        assertThat(MDC.getCopyOfContextMap()).as("nothing is left for the thread's next request").isNullOrEmpty();
    }

    @Test
    void givenBuyerTokens_whenAnXUserIdHeaderIsSent_thenItNamesNoBuyer_butTheVerifiedBuyerIsLogged() throws Exception {
        var request = new MockHttpServletRequest("POST", "/api/v1/activities/double-11/reservations");
        request.addHeader("X-User-Id", "mallory");
        request.addHeader("Authorization", "Bearer verified-token");
        BuyerAuthenticator verified = BuyerAuthenticator.oncePerRequest(req -> new BuyerId("alice"));
        Map<String, String> seen = new HashMap<>();

        new LogContextFilter(false).doFilter(request, new MockHttpServletResponse(), (req, res) -> {
            seen.put("before", String.valueOf(MDC.get("buyerId")));
            verified.authenticate((HttpServletRequest) req);
            seen.put("after", MDC.get("buyerId"));
        });

        assertThat(seen).containsEntry("before", "null").containsEntry("after", "alice");
        assertThat(MDC.getCopyOfContextMap()).as("nothing is left for the thread's next request").isNullOrEmpty();
    }

    @Test
    void givenAnActivityPathWithoutARequestId_whenHandled_thenAnIdIsMadeAndTheActivityIsNamed() throws Exception {
        var request = new MockHttpServletRequest("POST", "/api/v1/activities/double-11/reservations");
        var response = new MockHttpServletResponse();

        Map<String, String> seen = handle(request, response);

        assertThat(seen.get("requestId")).hasSize(36).isEqualTo(response.getHeader("X-Request-Id"));
        assertThat(seen).containsEntry("activityId", "double-11").doesNotContainKeys("buyerId", "reservationId");
    }

    @Test
    void givenHeadersThatAreNoIds_whenHandled_thenTheyNeverReachTheLog() throws Exception {
        var request = new MockHttpServletRequest("GET", "/api/v1/activities");
        request.addHeader("X-User-Id", "mallory\n2026-12-01 INFO forged line");
        request.addHeader("X-Request-Id", "x y");
        var response = new MockHttpServletResponse();

        Map<String, String> seen = handle(request, response);

        assertThat(seen).doesNotContainKey("buyerId");
        assertThat(seen.get("requestId")).isNotEqualTo("x y").hasSize(36);
    }

    @Test
    void givenManyRequestsWithoutAnId_whenIdsAreMade_thenEachIsADistinctVersion4Uuid() {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            String id = LogContextFilter.newRequestId();
            UUID uuid = UUID.fromString(id);
            assertThat(uuid.version()).isEqualTo(4);
            assertThat(uuid.variant()).isEqualTo(2);
            assertThat(uuid.toString()).isEqualTo(id);
            ids.add(id);
        }
        assertThat(ids).hasSize(10_000);
    }

    /** The rules as the filter had them, as regular expressions: the referee of its hand-written checks. */
    private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9_.:-]{1,128}");
    private static final Pattern ACTIVITY_PATH = Pattern.compile("^/api/v1/activities/([A-Za-z0-9_-]{1,64})(?:/.*)?$");
    private static final Pattern RESERVATION_PATH =
            Pattern.compile("^/api/v1/reservations/(([A-Za-z0-9_-]{1,64})\\.[A-Za-z0-9_-]{1,64})(?:/.*)?$");

    @Test
    void givenRandomPathsAndHeaders_whenHandled_thenTheIdsLoggedAreExactlyThoseThePatternsTake() throws Exception {
        Random random = new Random(20261201);
        String[] prefixes = {"/api/v1/activities/", "/api/v1/reservations/", "/api/v1/activitie/", "/api/v1/", ""};
        String pieces = "aZ09_-.:/ \n\r\u0085\u2028\u2029%é";
        for (int i = 0; i < 20_000; i++) {
            String path = prefixes[random.nextInt(prefixes.length)] + randomText(random, pieces);
            String header = randomText(random, pieces);
            var request = new MockHttpServletRequest("GET", path);
            request.addHeader("X-User-Id", header);
            request.addHeader("X-Request-Id", header);

            Map<String, String> seen = handle(request, new MockHttpServletResponse());

            Map<String, String> expected = new HashMap<>();
            if (TOKEN.matcher(header).matches()) {
                expected.put("buyerId", header);
                expected.put("requestId", header);
            }
            Matcher activity = ACTIVITY_PATH.matcher(path);
            Matcher reservation = RESERVATION_PATH.matcher(path);
            if (activity.matches()) {
                expected.put("activityId", activity.group(1));
            } else if (reservation.matches()) {
                expected.put("reservationId", reservation.group(1));
                expected.put("activityId", reservation.group(2));
            }
            if (!expected.containsKey("requestId")) {
                assertThat(seen.get("requestId")).as(path + " / " + header).hasSize(36);
                expected.put("requestId", seen.get("requestId"));
            }
            assertThat(seen).as("path %s, header %s", path, header).isEqualTo(expected);
        }
    }

    /** Mostly id characters, runs around the 64- and 128-character limits, now and then anything else. */
    private static String randomText(Random random, String pieces) {
        int length = switch (random.nextInt(4)) {
            case 0 -> random.nextInt(5);
            case 1 -> 60 + random.nextInt(10);
            case 2 -> 125 + random.nextInt(8);
            default -> random.nextInt(140);
        };
        var text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            text.append(random.nextInt(10) < 8 ? pieces.charAt(random.nextInt(6)) : pieces.charAt(random.nextInt(pieces.length())));
        }
        return text.toString();
    }

    private Map<String, String> handle(MockHttpServletRequest request, MockHttpServletResponse response)
            throws Exception {
        Map<String, String> seen = new HashMap<>();
        filter.doFilter(request, response, (req, res) -> seen.putAll(MDC.getCopyOfContextMap()));
        return seen;
    }
}
