package io.flashsale.adapter.web;

import io.flashsale.adapter.web.security.AttemptOriginResolver;
import io.flashsale.adapter.web.security.BuyerAuthenticationException;
import io.flashsale.adapter.web.security.BuyerAuthenticator;
import io.flashsale.adapter.web.security.ClientAddressResolver;
import io.flashsale.application.reservation.model.ReserveStockCommand;
import io.flashsale.application.reservation.port.in.ReserveStockUseCase;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.shared.Identifier;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.servlet.HandlerExceptionResolver;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.util.Enumeration;

/**
 * The crowd's endpoint, {@code POST /api/v1/activities/{id}/reservations}, answered at the servlet level: the plain
 * attempt (a well-formed buyer, a JSON body of known length that reads and validates cleanly, no content
 * negotiation) is decided here without the dispatcher's handler look-up, argument resolvers, Bean Validation and
 * return-value handlers, which cost more CPU than the reservation itself (docs/performance.md, ADR 35). Everything
 * else goes on to {@link ReservationController} untouched (the body replayed), so every refusal of bad input is the
 * controller's own, byte for byte. An exception of the use case is answered by the application's exception
 * resolvers, as in the controller. Runs last among the filters: a filter in front of the endpoint (a rate limiter)
 * sees every attempt, plain or not.
 */
public final class LeanReservationFilter extends OncePerRequestFilter {

    static final String PREFIX = "/api/v1/activities/";
    static final String SUFFIX = "/reservations";

    private final ReserveStockUseCase reserveStock;
    private final ObjectReader reader;
    private final ResponseEntityWriter writer;
    private final HandlerExceptionResolver exceptions;
    private final boolean ceiling;
    private final ClientAddressResolver clients;
    private final BuyerAuthenticator buyers;
    private final AttemptOriginResolver origins;

    /**
     * @param ceiling also answer the load harness's {@link CeilingController} path the same lean way (read, check,
     *                then the fixed 202 instead of the use case), so the harness measures this stack's ceiling
     */
    public LeanReservationFilter(ReserveStockUseCase reserveStock, JsonMapper json, ResponseEntityWriter writer,
                                 HandlerExceptionResolver exceptions, boolean ceiling, ClientAddressResolver clients,
                                 BuyerAuthenticator buyers, AttemptOriginResolver origins) {
        this.origins = origins;
        this.reserveStock = reserveStock;
        this.reader = json.readerFor(ReserveRequest.class);
        this.writer = writer;
        this.exceptions = exceptions;
        this.ceiling = ceiling;
        this.clients = clients;
        this.buyers = buyers;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !"POST".equals(request.getMethod()) || activityIdOf(request) == null;
    }

    private String activityIdOf(HttpServletRequest request) {
        return atCeiling(request) ? CeilingController.ACTIVITY : activityId(request.getRequestURI());
    }

    private boolean atCeiling(HttpServletRequest request) {
        return ceiling && CeilingController.PATH.equals(request.getRequestURI());
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        BuyerId buyer = plainBuyer(request);
        int length = request.getContentLength();
        if (buyer == null || length <= 0 || !plainJson(request) || !anyAnswerAccepted(request)) {
            chain.doFilter(request, response);
            return;
        }
        byte[] body = request.getInputStream().readNBytes(length);
        ReserveStockCommand command = body.length == length ? command(request, buyer, body) : null;
        if (command == null) {
            chain.doFilter(new ReplayedBodyRequest(request, body), response);
            return;
        }
        if (atCeiling(request)) {
            writer.write(CeilingController.ACCEPTED, request, response);
            return;
        }
        ResponseEntity<?> answer;
        try {
            answer = ReservationOutcomeResponses.of(reserveStock.reserve(command));
        } catch (RuntimeException e) {
            if (exceptions.resolveException(request, response, null, e) == null) {
                throw e;
            }
            return;
        }
        writer.write(answer, request, response);
    }

    /**
     * The attempt's command, or null when anything about it needs the controller's answer. Nothing has happened yet,
     * so any failure here (a body Jackson refuses or reads as null, a value the domain refuses) is handed on.
     */
    private ReserveStockCommand command(HttpServletRequest request, BuyerId buyer, byte[] body) {
        try {
            ReserveRequest attempt = reader.readValue(body);
            if (attempt == null || !attempt.isPlainlyValid()) {
                return null;
            }
            return ReservationController.command(activityIdOf(request), buyer, clients.resolve(request),
                    origins.resolve(request), request.getHeader(ReservationController.IDEMPOTENCY_KEY), attempt);
        } catch (RuntimeException notPlain) {
            return null;
        }
    }

    /** The activity id of a reservation-attempt path when it is a plain id, else null. */
    static String activityId(String path) {
        if (path == null || !path.startsWith(PREFIX) || !path.endsWith(SUFFIX)
                || path.length() <= PREFIX.length() + SUFFIX.length()) {
            return null;
        }
        String id = path.substring(PREFIX.length(), path.length() - SUFFIX.length());
        return Identifier.isValid(id) ? id : null;
    }

    /**
     * The buyer as the controller's resolver takes it, or null: the controller then refuses with the same answer (a
     * once-per-request authenticator gives it the refusal found here, without verifying a token twice).
     */
    private BuyerId plainBuyer(HttpServletRequest request) {
        try {
            return buyers.authenticate(request);
        } catch (BuyerAuthenticationException notABuyer) {
            return null;
        }
    }

    private static boolean plainJson(HttpServletRequest request) {
        return "application/json".equalsIgnoreCase(request.getContentType());
    }

    /** No Accept header, or one that takes anything: no negotiation for the controller to do. */
    private static boolean anyAnswerAccepted(HttpServletRequest request) {
        Enumeration<String> values = request.getHeaders(HttpHeaders.ACCEPT);
        if (values == null || !values.hasMoreElements()) {
            return true;
        }
        String value = values.nextElement();
        return !values.hasMoreElements() && "*/*".equals(value.trim());
    }
}
