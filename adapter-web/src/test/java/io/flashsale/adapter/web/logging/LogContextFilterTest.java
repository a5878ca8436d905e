package io.flashsale.adapter.web.logging;

import org.junit.jupiter.api.Test;
import org.slf4j.MDC;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class LogContextFilterTest {

    private final LogContextFilter filter = new LogContextFilter();

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

    private Map<String, String> handle(MockHttpServletRequest request, MockHttpServletResponse response)
            throws Exception {
        Map<String, String> seen = new HashMap<>();
        filter.doFilter(request, response, (req, res) -> seen.putAll(MDC.getCopyOfContextMap()));
        return seen;
    }
}
