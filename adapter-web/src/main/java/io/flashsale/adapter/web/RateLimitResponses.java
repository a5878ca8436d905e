package io.flashsale.adapter.web;

import io.flashsale.domain.reservation.ReservationOutcome;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

import java.time.Duration;

/**
 * A rate-limit refusal: 429 {@code RATE_LIMITED} with {@code Retry-After} (seconds until a token is there again) and
 * the widely used {@code RateLimit-Limit} (the burst: attempts allowed at once), {@code RateLimit-Remaining} (0) and
 * {@code RateLimit-Reset} (seconds until the whole burst is back), whole seconds rounded up, at least 1.
 */
final class RateLimitResponses {

    static final String LIMIT = "RateLimit-Limit";
    static final String REMAINING = "RateLimit-Remaining";
    static final String RESET = "RateLimit-Reset";

    private RateLimitResponses() {
    }

    static ResponseEntity<ProblemDetail> of(ReservationOutcome.RateLimited limited) {
        long retryAfter = wholeSeconds(limited.retryAfter());
        ProblemDetail problem = Problems.of(ProblemCode.RATE_LIMITED,
                "too many attempts too fast; try again in " + retryAfter + " s");
        problem.setProperty("limit", limited.limit().label());
        problem.setProperty("retryAfterSeconds", retryAfter);
        return Problems.status(ProblemCode.RATE_LIMITED.status())
                .header(HttpHeaders.RETRY_AFTER, Long.toString(retryAfter))
                .header(LIMIT, Long.toString(limited.capacity()))
                .header(REMAINING, "0")
                .header(RESET, Long.toString(Math.max(retryAfter, wholeSeconds(limited.fullAfter()))))
                .body(problem);
    }

    static long wholeSeconds(Duration duration) {
        long millis = Math.max(0, duration.toMillis());
        return Math.max(1, (millis + 999) / 1000);
    }
}
