package io.flashsale.adapter.web.security;

import io.flashsale.adapter.web.ProblemCode;
import io.flashsale.adapter.web.Problems;
import org.springframework.http.ProblemDetail;

import java.time.Duration;

/** An admin call from a client that failed the token check too often lately: 429 {@code RATE_LIMITED}, limit admin. */
public class AdminAttemptsBlockedException extends RuntimeException {

    private final Duration retryAfter;

    public AdminAttemptsBlockedException(Duration retryAfter) {
        super("too many wrong admin tokens from this client; try again later");
        this.retryAfter = retryAfter;
    }

    /** Whole seconds, rounded up, at least one: what {@code Retry-After} says. */
    public long retryAfterSeconds() {
        return Math.max(1, (retryAfter.toMillis() + 999) / 1000);
    }

    public ProblemDetail problem() {
        ProblemDetail problem = Problems.of(ProblemCode.RATE_LIMITED, getMessage());
        problem.setProperty("limit", "admin");
        return problem;
    }
}
