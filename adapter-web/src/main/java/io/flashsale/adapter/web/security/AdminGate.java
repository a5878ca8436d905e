package io.flashsale.adapter.web.security;

import jakarta.servlet.http.HttpServletRequest;

import java.time.Duration;

/**
 * The admin token's check for both admin surfaces: a client that failed too often is turned away before its token is
 * looked at; a wrong token (not a missing one) counts as a failure of the request's client address.
 */
public final class AdminGate {

    public sealed interface Verdict {
    }

    public record Admitted() implements Verdict {
    }

    public record Refused() implements Verdict {
    }

    public record Blocked(Duration retryAfter) implements Verdict {
    }

    private final AdminToken token;
    private final AdminAttempts attempts;

    public AdminGate(AdminToken token, AdminAttempts attempts) {
        this.token = token;
        this.attempts = attempts;
    }

    public Verdict check(HttpServletRequest request, String surface) {
        String client = request.getRemoteAddr();
        Duration wait = attempts.blockedFor(client);
        if (wait.isPositive()) {
            return new Blocked(wait);
        }
        String candidate = BearerTokens.of(request);
        if (token.matches(candidate)) {
            return new Admitted();
        }
        if (candidate != null) {
            attempts.failed(client, surface);
        }
        return new Refused();
    }
}
