package io.flashsale.adapter.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/**
 * Hands an {@code Accept} header Spring's parser cannot read on as {@value #STAND_IN}, a type nothing here answers
 * with. Spring Boot's welcome-page mapping parses the header while the dispatcher picks a handler for a request no
 * controller maps, and fails on an unterminated quote ({@code "/r1372R}, found by the fuzzer) with an index exception
 * it does not catch: the request was answered 500. With the stand-in every reader refuses the header as it refused an
 * unreadable one before ({@link ReadableAcceptHeader}, {@link AcceptableAnswerInterceptor}: 406), and a problem is
 * still answered with its own status and code.
 */
public final class UnreadableAcceptFilter extends OncePerRequestFilter {

    /** A well-formed media type no answer of this service has. */
    public static final String STAND_IN = "application/x-unreadable-accept";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        chain.doFilter(readable(request) ? request : new StandIn(request), response);
    }

    private static boolean readable(HttpServletRequest request) {
        List<String> values = Collections.list(request.getHeaders(HttpHeaders.ACCEPT));
        if (values.isEmpty()) {
            return true;
        }
        try {
            ReadableAcceptHeader.parse(values);
            return true;
        } catch (IllegalArgumentException unreadable) {
            return false;
        }
    }

    private static final class StandIn extends HttpServletRequestWrapper {

        StandIn(HttpServletRequest request) {
            super(request);
        }

        @Override
        public String getHeader(String name) {
            return HttpHeaders.ACCEPT.equalsIgnoreCase(name) ? STAND_IN : super.getHeader(name);
        }

        @Override
        public Enumeration<String> getHeaders(String name) {
            return HttpHeaders.ACCEPT.equalsIgnoreCase(name) ? Collections.enumeration(List.of(STAND_IN))
                    : super.getHeaders(name);
        }
    }
}
