package io.flashsale.adapter.web;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

import java.net.URI;
import java.util.List;

/** Builds RFC 9457 problems that always carry a {@code code}. */
public final class Problems {

    public static final String CODE = "code";
    public static final String ERRORS = "errors";
    /** Seconds a buyer should wait before asking again while a sale is warmed up or a reservation becomes an order. */
    public static final String RETRY_AFTER_SECONDS = "1";

    private Problems() {
    }

    public static ProblemDetail of(ProblemCode code, String detail) {
        return of(code.status(), code, detail);
    }

    /** For statuses decided by the framework, which may differ from the code's usual status. */
    public static ProblemDetail of(HttpStatusCode status, ProblemCode code, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setProperty(CODE, code.name());
        return problem;
    }

    public static ProblemDetail validation(List<FieldErrorResponse> errors) {
        ProblemDetail problem = of(ProblemCode.VALIDATION, "the request is not valid");
        problem.setProperty(ERRORS, errors);
        return problem;
    }

    /** Sets {@code instance} to the request path, unless the path is not a valid URI reference. */
    public static ProblemDetail at(ProblemDetail problem, String requestUri) {
        if (requestUri != null) {
            try {
                problem.setInstance(URI.create(requestUri));
            } catch (IllegalArgumentException notAUri) {
                // The problem is still complete without it.
            }
        }
        return problem;
    }

    public static ResponseEntity<ProblemDetail> response(ProblemDetail problem) {
        return status(problem.getStatus()).body(problem);
    }

    /**
     * A problem answer whose media type is set, not negotiated: a request whose Accept header is unparseable or
     * names only other types still gets its problem+json (with negotiation it got the status and an empty body).
     */
    public static ResponseEntity.BodyBuilder status(HttpStatusCode status) {
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON);
    }

    /** {@link #status(HttpStatusCode)} for a problem's own status. */
    public static ResponseEntity.BodyBuilder status(int status) {
        return status(HttpStatusCode.valueOf(status));
    }

    public static ResponseEntity<ProblemDetail> notReady(String detail) {
        return status(ProblemCode.NOT_READY.status())
                .header(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS)
                .body(of(ProblemCode.NOT_READY, detail));
    }
}
