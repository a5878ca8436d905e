package io.flashsale.adapter.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes a problem as a finished response (known length, connection closing) for requests whose
 * body is left unread: the container drops such a connection, and the answer must be on the wire first.
 */
public final class CompleteProblemWriter {

    private final JsonMapper json;

    public CompleteProblemWriter(JsonMapper json) {
        this.json = json;
    }

    public void write(HttpServletRequest request, HttpServletResponse response, ProblemDetail problem) throws IOException {
        byte[] body = json.writeValueAsBytes(Problems.at(problem, request.getRequestURI()));
        response.setStatus(problem.getStatus());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setHeader(HttpHeaders.CONNECTION, "close");
        response.setContentLength(body.length);
        try (OutputStream out = response.getOutputStream()) {
            out.write(body);
        }
    }
}
