package io.flashsale.adapter.web.security;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpHeaders;

/** The token of an {@code Authorization: Bearer <token>} header. */
final class BearerTokens {

    private static final String BEARER = "Bearer ";

    private BearerTokens() {
    }

    static String of(HttpServletRequest request) {
        return of(request.getHeader(HttpHeaders.AUTHORIZATION));
    }

    static String of(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return null;
        }
        return authorization.substring(BEARER.length()).strip();
    }
}
