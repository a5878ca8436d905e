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

/**
 * Puts {@code requestId}, {@code buyerId}, {@code activityId} and {@code reservationId} into the MDC for every line
 * logged while a request is handled, and echoes the request id in {@code X-Request-Id}. A caller's own
 * {@code X-Request-Id} is kept when it is a plain token; values come from headers and the path only when they have
 * the shape of an id, so a log line cannot be forged through them. The buyer is taken from {@code X-User-Id} only
 * where a trusted gateway sets that header; with buyer tokens it is put when the token is verified
 * ({@code BuyerAuthenticator.oncePerRequest}), so a header a caller made up never names a buyer in the log.
 */
public final class LogContextFilter extends OncePerRequestFilter {

    public static final String REQUEST_ID_HEADER = "X-Request-Id";
    public static final String REQUEST_ID = "requestId";
    public static final String BUYER_ID = "buyerId";
    public static final String ACTIVITY_ID = "activityId";
    public static final String RESERVATION_ID = "reservationId";

    private static final String BUYER_HEADER = "X-User-Id";
    private static final String ACTIVITY_PREFIX = "/api/v1/activities/";
    private static final String RESERVATION_PREFIX = "/api/v1/reservations/";

    private final boolean buyerFromHeader;

    /** @param buyerFromHeader the buyer is the {@code X-User-Id} header (a trusted gateway sets it) */
    public LogContextFilter(boolean buyerFromHeader) {
        this.buyerFromHeader = buyerFromHeader;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String given = request.getHeader(REQUEST_ID_HEADER);
        String requestId = isToken(given) ? given : newRequestId();
        response.setHeader(REQUEST_ID_HEADER, requestId);
        MDC.put(REQUEST_ID, requestId);
        String buyer = buyerFromHeader ? request.getHeader(BUYER_HEADER) : null;
        if (isToken(buyer)) {
            MDC.put(BUYER_ID, buyer);
        }
        putPathIds(request.getRequestURI());
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
     * {@code /api/v1/activities/<id>[/...]} names the activity; {@code /api/v1/reservations/<activity>.<token>[/...]}
     * the reservation and its activity. Checked by hand, not by regular expressions: this runs on every request
     * (the patterns showed in the reserve profile, docs/performance.md); {@code LogContextFilterTest} holds the
     * patterns it equals.
     */
    private static void putPathIds(String path) {
        if (path == null) {
            return;
        }
        if (path.startsWith(ACTIVITY_PREFIX)) {
            int from = ACTIVITY_PREFIX.length();
            int end = idEnd(path, from);
            if (end > from && end - from <= MAX_ID && isRest(path, end)) {
                MDC.put(ACTIVITY_ID, path.substring(from, end));
            }
        } else if (path.startsWith(RESERVATION_PREFIX)) {
            int from = RESERVATION_PREFIX.length();
            int dot = idEnd(path, from);
            if (dot == from || dot - from > MAX_ID || dot == path.length() || path.charAt(dot) != '.') {
                return;
            }
            int end = idEnd(path, dot + 1);
            if (end > dot + 1 && end - dot - 1 <= MAX_ID && isRest(path, end)) {
                MDC.put(RESERVATION_ID, path.substring(from, end));
                MDC.put(ACTIVITY_ID, path.substring(from, dot));
            }
        }
    }

    private static final int MAX_ID = 64;
    private static final int MAX_TOKEN = 128;

    /** Where the run of id characters {@code [A-Za-z0-9_-]} that starts at {@code from} ends. */
    private static int idEnd(String path, int from) {
        int i = from;
        while (i < path.length() && isIdChar(path.charAt(i))) {
            i++;
        }
        return i;
    }

    /** Nothing after the id, or a slash and then anything but a line terminator (what {@code (?:/.*)?$} takes). */
    private static boolean isRest(String path, int at) {
        if (at == path.length()) {
            return true;
        }
        if (path.charAt(at) != '/') {
            return false;
        }
        for (int i = at + 1; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029') {
                return false;
            }
        }
        return true;
    }

    /** {@code [A-Za-z0-9_.:-]{1,128}}: a value that may go into a log line as it is. */
    static boolean isToken(String value) {
        if (value == null || value.isEmpty() || value.length() > MAX_TOKEN) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (!isIdChar(c) && c != '.' && c != ':') {
                return false;
            }
        }
        return true;
    }

    private static boolean isIdChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-';
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
