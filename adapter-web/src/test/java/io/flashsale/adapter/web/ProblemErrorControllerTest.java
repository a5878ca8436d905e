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

    /** Defect 9 of docs/reliability.md: a client that asks for the error path itself found a 500. */
    @Test
    void givenARequestStraightToTheErrorPath_whenRendered_thenNotFound() {
        ResponseEntity<ProblemDetail> response = controller.error(new MockHttpServletRequest("POST", "/error"));

        assertThat(response.getStatusCode().value()).isEqualTo(404);
        assertThat(response.getBody().getProperties()).containsEntry("code", "NOT_FOUND");
        assertThat(response.getBody().getInstance()).hasToString("/error");
    }

    @Test
    void givenAnExceptionWithoutAStatus_whenRendered_thenInternal() {
        var request = new MockHttpServletRequest("GET", "/error");
        request.setAttribute(RequestDispatcher.ERROR_EXCEPTION, new IllegalStateException("a filter failed"));

        ResponseEntity<ProblemDetail> response = controller.error(request);

        assertThat(response.getStatusCode().value()).isEqualTo(500);
        assertThat(response.getBody().getProperties()).containsEntry("code", "INTERNAL");
    }
}
