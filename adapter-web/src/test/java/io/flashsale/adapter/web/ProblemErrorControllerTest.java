package io.flashsale.adapter.web;

import jakarta.servlet.RequestDispatcher;
import org.junit.jupiter.api.Test;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.mock.web.MockHttpServletRequest;

import static org.assertj.core.api.Assertions.assertThat;

class ProblemErrorControllerTest {

    private final ProblemErrorController controller = new ProblemErrorController();

    @Test
    void givenAContainerError_whenRendered_thenAProblemWithTheCodeOfItsStatus() {
        var request = new MockHttpServletRequest("GET", "/error");
        request.setAttribute(RequestDispatcher.ERROR_STATUS_CODE, 404);
        request.setAttribute(RequestDispatcher.ERROR_REQUEST_URI, "/api/v1/nothing");

        ResponseEntity<ProblemDetail> response = controller.error(request);

        assertThat(response.getStatusCode().value()).isEqualTo(404);
        assertThat(response.getBody().getProperties()).containsEntry("code", "NOT_FOUND");
        assertThat(response.getBody().getInstance()).hasToString("/api/v1/nothing");
    }

    @Test
    void givenAFailureInAFilter_whenRendered_thenInternalWithoutTheExceptionsWords() {
        var request = new MockHttpServletRequest("GET", "/error");
        request.setAttribute(RequestDispatcher.ERROR_STATUS_CODE, 500);
        request.setAttribute(RequestDispatcher.ERROR_EXCEPTION, new IllegalStateException("password=hunter2"));

        ResponseEntity<ProblemDetail> response = controller.error(request);

        assertThat(response.getStatusCode().value()).isEqualTo(500);
        assertThat(response.getBody().getProperties()).containsEntry("code", "INTERNAL");
        assertThat(response.getBody().toString()).doesNotContain("hunter2", "IllegalStateException");
    }

    @Test
    void givenNoStatus_whenRendered_thenInternal() {
        ResponseEntity<ProblemDetail> response = controller.error(new MockHttpServletRequest("GET", "/error"));

        assertThat(response.getStatusCode().value()).isEqualTo(500);
    }
}
