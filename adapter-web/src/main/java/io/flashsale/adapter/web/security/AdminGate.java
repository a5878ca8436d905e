package io.flashsale.adapter.web.security;

import jakarta.servlet.http.HttpServletRequest;

import java.time.Duration;
import java.util.Optional;

/**
 * The admin tokens' check for both admin surfaces: a client that failed too often is turned away before its token is
 * looked at; a wrong token (not a missing one) counts as a failure of the request's client address. An admitted call
 * carries the name of the operator whose token it showed.
 */
public final class AdminGate {

    public sealed interface Verdict {
    }

    public record Admitted(String operator) implements Verdict {
    }

    public record Refused() implements Verdict {
    }

    public record Blocked(Duration retryAfter) implements Verdict {
    }

    private final AdminCredentials credentials;
    private final AdminAttempts attempts;

    public AdminGate(AdminCredentials credentials, AdminAttempts attempts) {
        this.credentials = credentials;
        this.attempts = attempts;
    }

    public Verdict check(HttpServletRequest request, String surface) {
        String client = request.getRemoteAddr();
        Duration wait = attempts.blockedFor(client);
        if (wait.isPositive()) {
            return new Blocked(wait);
        }
        String candidate = BearerTokens.of(request);
        Optional<String> operator = credentials.operatorOf(candidate);
        if (operator.isPresent()) {
            return new Admitted(operator.get());
        }
        if (candidate != null) {
            attempts.failed(client, surface);
        }
        return new Refused();
    }
}
