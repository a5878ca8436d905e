package io.flashsale.adapter.web.security;

import io.flashsale.adapter.web.CompleteProblemWriter;
import io.flashsale.adapter.web.ProblemCode;
import io.flashsale.adapter.web.Problems;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.net.URI;
import java.util.Locale;

/**
 * Refuses a browser's state-changing buyer call (anything but GET/HEAD/OPTIONS on reservations) made from another
 * site: {@code Sec-Fetch-Site: cross-site}, or, from a browser that sends no fetch metadata, an {@code Origin} whose
 * host and port are not the request's own. A call with neither header (a non-browser client) passes: the check
 * guards browsers against pages of other sites, it authenticates no one.
 */
public final class CrossSiteRequestFilter extends OncePerRequestFilter {

    private final CompleteProblemWriter problems;

    public CrossSiteRequestFilter(CompleteProblemWriter problems) {
        this.problems = problems;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return isSafe(request.getMethod()) || !isReservationPath(request.getRequestURI());
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (isCrossSite(request.getHeader("Sec-Fetch-Site"), request.getHeader(HttpHeaders.ORIGIN),
                request.getHeader(HttpHeaders.HOST))) {
            problems.write(request, response, Problems.of(ProblemCode.CROSS_SITE_REQUEST,
                    "a page of another site may not change reservations"));
            return;
        }
        chain.doFilter(request, response);
    }

    /** Fetch metadata decides when the browser sent it; else the Origin, which must name this host and port. */
    static boolean isCrossSite(String fetchSite, String origin, String host) {
        if (fetchSite != null) {
            return "cross-site".equalsIgnoreCase(fetchSite.strip());
        }
        if (origin == null) {
            return false;
        }
        return host == null || !authority(origin).equals(host.strip().toLowerCase(Locale.ROOT));
    }

    /** host[:port] of an Origin, the port left out when it is the scheme's default as a Host header would; "" if none. */
    private static String authority(String origin) {
        try {
            URI uri = URI.create(origin.strip());
            if (uri.getHost() == null) {
                return "";
            }
            boolean defaultPort = uri.getPort() == -1
                    || uri.getPort() == 80 && "http".equalsIgnoreCase(uri.getScheme())
                    || uri.getPort() == 443 && "https".equalsIgnoreCase(uri.getScheme());
            String host = uri.getHost().toLowerCase(Locale.ROOT);
            return defaultPort ? host : host + ":" + uri.getPort();
        } catch (IllegalArgumentException e) {
            return "";
        }
    }

    private static boolean isSafe(String method) {
        return "GET".equals(method) || "HEAD".equals(method) || "OPTIONS".equals(method);
    }

    private static boolean isReservationPath(String path) {
        return path != null && (path.startsWith("/api/v1/reservations/")
                || path.startsWith("/api/v1/activities/") && path.endsWith("/reservations"));
    }
}
