package io.flashsale.adapter.web.logging;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.MDC;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Puts {@code requestId}, {@code buyerId}, {@code activityId} and {@code reservationId} into the MDC for every line
 * logged while a request is handled, and echoes the request id in {@code X-Request-Id}. A caller's own
 * {@code X-Request-Id} is kept when it is a plain token; values come from headers and the path only when they have
 * the shape of an id, so a log line cannot be forged through them.
 */
public final class LogContextFilter extends OncePerRequestFilter {

    public static final String REQUEST_ID_HEADER = "X-Request-Id";
    public static final String REQUEST_ID = "requestId";
    public static final String BUYER_ID = "buyerId";
    public static final String ACTIVITY_ID = "activityId";
    public static final String RESERVATION_ID = "reservationId";

    private static final String BUYER_HEADER = "X-User-Id";
    private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9_.:-]{1,128}");
    private static final Pattern ACTIVITY_PATH = Pattern.compile("^/api/v1/activities/([A-Za-z0-9_-]{1,64})(?:/.*)?$");
    private static final Pattern RESERVATION_PATH =
            Pattern.compile("^/api/v1/reservations/(([A-Za-z0-9_-]{1,64})\\.[A-Za-z0-9_-]{1,64})(?:/.*)?$");

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String given = request.getHeader(REQUEST_ID_HEADER);
        String requestId = given != null && TOKEN.matcher(given).matches() ? given : newRequestId();
        response.setHeader(REQUEST_ID_HEADER, requestId);
        MDC.put(REQUEST_ID, requestId);
        String buyer = request.getHeader(BUYER_HEADER);
        if (buyer != null && TOKEN.matcher(buyer).matches()) {
            MDC.put(BUYER_ID, buyer);
        }
        String path = request.getRequestURI();
        Matcher activity = ACTIVITY_PATH.matcher(path);
        Matcher reservation = RESERVATION_PATH.matcher(path);
        if (activity.matches()) {
            MDC.put(ACTIVITY_ID, activity.group(1));
        } else if (reservation.matches()) {
            MDC.put(RESERVATION_ID, reservation.group(1));
            MDC.put(ACTIVITY_ID, reservation.group(2));
        }
        try {
            chain.doFilter(request, response);
        } finally {
            MDC.remove(REQUEST_ID);
            MDC.remove(BUYER_ID);
            MDC.remove(ACTIVITY_ID);
            MDC.remove(RESERVATION_ID);
        }
    }

    /**
     * A random (version 4 layout) UUID from {@link ThreadLocalRandom}: a log correlation id needs uniqueness, not
     * secrecy, and {@code UUID.randomUUID()} takes the JDK's SecureRandom on every request (it showed in the reserve
     * profile, docs/performance.md).
     */
    static String newRequestId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = (random.nextLong() & ~0xF000L) | 0x4000L;
        long low = (random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        return new UUID(high, low).toString();
    }
}
