package io.flashsale.adapter.web;

import io.flashsale.adapter.web.security.NotificationSignature;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.util.Optional;

/**
 * Checks the payment provider's signature on the raw bytes of a notification before anything reads them as JSON,
 * then hands the same bytes on ({@link ReplayedBodyRequest}) with the request marked as verified. The controller pays
 * only a marked request, so a path this filter does not recognise can never pay unsigned. Without a secret configured
 * every notification is refused: 503, so that the provider keeps the payment and delivers it again later.
 */
public final class PaymentNotificationFilter extends OncePerRequestFilter {

    /** Set on a request whose signature matched its body. */
    static final String VERIFIED = PaymentNotificationFilter.class.getName() + ".VERIFIED";

    private final Optional<NotificationSignature> signature;
    private final CompleteProblemWriter problems;

    /** @param signature empty when no notification secret is configured */
    public PaymentNotificationFilter(Optional<NotificationSignature> signature, CompleteProblemWriter problems) {
        this.signature = signature;
        this.problems = problems;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !"POST".equals(request.getMethod())
                || !PaymentNotificationController.PATH.equals(request.getRequestURI());
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (signature.isEmpty()) {
            problems.write(request, response, Problems.of(ProblemCode.PAYMENT_NOTIFICATIONS_DISABLED,
                    "payment notifications are not accepted: no notification secret is configured"));
            return;
        }
        byte[] body;
        try {
            body = request.getInputStream().readAllBytes();
        } catch (PayloadTooLargeException e) {
            problems.write(request, response, Problems.of(ProblemCode.PAYLOAD_TOO_LARGE, e.getMessage()));
            return;
        }
        NotificationSignature.Verdict verdict = signature.get().verify(
                request.getHeader(NotificationSignature.HEADER), body);
        if (verdict != NotificationSignature.Verdict.VALID) {
            problems.write(request, response, Problems.of(ProblemCode.SIGNATURE_INVALID, detail(verdict)));
            return;
        }
        request.setAttribute(VERIFIED, Boolean.TRUE);
        chain.doFilter(new ReplayedBodyRequest(request, body), response);
    }

    private static String detail(NotificationSignature.Verdict verdict) {
        return switch (verdict) {
            case MISSING -> "the " + NotificationSignature.HEADER + " header is required";
            case MALFORMED -> "the " + NotificationSignature.HEADER + " header is not t=<unix seconds>,v1=<hex>";
            case STALE -> "the signature's timestamp is outside the accepted window";
            case MISMATCH, VALID -> "the signature does not match the body";
        };
    }
}
