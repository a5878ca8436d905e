package io.flashsale.adapter.web;

import io.flashsale.adapter.web.security.AdminAttemptsBlockedException;
import io.flashsale.adapter.web.security.BuyerAuthenticationException;
import io.flashsale.adapter.web.security.BuyerPaymentDisabledException;
import io.flashsale.adapter.web.security.UnauthorizedException;
import io.flashsale.application.order.port.out.EventPublishException;
import io.flashsale.application.outage.model.DegradedException;
import io.flashsale.application.reconciliation.model.AdjustmentProposalNotFoundException;
import io.flashsale.application.reconciliation.model.NoRepairAwaitingApprovalException;
import io.flashsale.application.reconciliation.model.SkuNotFoundException;
import io.flashsale.application.sale.model.ActivityAlreadyExistsException;
import io.flashsale.application.sale.model.ActivityArchivedException;
import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.application.sale.model.ActivityNotReadyException;
import io.flashsale.application.sale.model.HotStoreMayEvictException;
import io.flashsale.application.sale.model.SaleHasReservationsException;
import io.flashsale.application.sale.model.SaleInSlicesException;
import io.flashsale.application.sale.port.out.NodeEvictionPolicy;
import io.flashsale.application.shared.port.out.HotStoreFiguresDisagreeException;
import io.flashsale.application.shared.port.out.StoreContentionException;
import io.flashsale.application.shared.port.out.StoreUnavailableException;
import io.flashsale.domain.shared.InvalidValueException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

import java.io.IOException;
import java.util.List;

/**
 * Turns every failure into {@code application/problem+json} with a stable {@code code}. Spring MVC's own
 * exceptions keep their status and get the code of that status; nothing internal reaches the caller.
 */
@RestControllerAdvice
public class ApiExceptionHandler extends ResponseEntityExceptionHandler {

    private static final Logger LOG = LoggerFactory.getLogger(ApiExceptionHandler.class);

    private final CompleteProblemWriter completeProblems;

    public ApiExceptionHandler(CompleteProblemWriter completeProblems) {
        this.completeProblems = completeProblems;
    }

    @ExceptionHandler(InvalidValueException.class)
    ResponseEntity<ProblemDetail> invalidValue(InvalidValueException e) {
        return Problems.response(Problems.validation(List.of(FieldErrors.of(e))));
    }

    @ExceptionHandler(ActivityAlreadyExistsException.class)
    ResponseEntity<ProblemDetail> activityExists(ActivityAlreadyExistsException e) {
        ProblemDetail problem = Problems.of(ProblemCode.ACTIVITY_EXISTS, "an activity with this id already exists");
        problem.setProperty("activityId", e.activityId().value());
        return Problems.response(problem);
    }

    @ExceptionHandler(ActivityNotFoundException.class)
    ResponseEntity<ProblemDetail> activityNotFound(ActivityNotFoundException e) {
        return Problems.response(Problems.of(ProblemCode.ACTIVITY_NOT_FOUND, "there is no such activity"));
    }

    @ExceptionHandler(AdjustmentProposalNotFoundException.class)
    ResponseEntity<ProblemDetail> proposalNotFound(AdjustmentProposalNotFoundException e) {
        return Problems.response(Problems.of(ProblemCode.PROPOSAL_NOT_FOUND,
                "the activity has no such stock adjustment proposal"));
    }

    @ExceptionHandler(SkuNotFoundException.class)
    ResponseEntity<ProblemDetail> skuNotFound(SkuNotFoundException e) {
        return Problems.response(Problems.of(ProblemCode.SKU_NOT_FOUND, "the activity offers no such SKU"));
    }

    @ExceptionHandler(NoRepairAwaitingApprovalException.class)
    ResponseEntity<ProblemDetail> noRepairAwaitingApproval(NoRepairAwaitingApprovalException e) {
        return Problems.response(Problems.of(ProblemCode.NO_REPAIR_AWAITING_APPROVAL,
                "no reconciliation report of this SKU waits for an operator's approval"));
    }

    @ExceptionHandler(ActivityNotReadyException.class)
    ResponseEntity<ProblemDetail> activityNotReady(ActivityNotReadyException e) {
        return Problems.notReady("the activity is not warmed up yet");
    }

    @ExceptionHandler(ActivityArchivedException.class)
    ResponseEntity<ProblemDetail> activityArchived(ActivityArchivedException e) {
        ProblemDetail problem = Problems.of(ProblemCode.ACTIVITY_ARCHIVED,
                "the sale has ended and was archived; it is not loaded again");
        problem.setProperty("activityId", e.activityId().value());
        return Problems.response(problem);
    }

    @ExceptionHandler(SaleInSlicesException.class)
    ResponseEntity<ProblemDetail> saleInSlices(SaleInSlicesException e) {
        ProblemDetail problem = Problems.of(ProblemCode.SALE_IN_SLICES,
                "the sale is in slices, and " + e.operation() + " of a sale in slices is not done slice by slice on"
                        + " this hot store; nothing was read or written");
        problem.setProperty("activityId", e.activityId().value());
        problem.setProperty("operation", e.operation());
        return Problems.response(problem);
    }

    @ExceptionHandler(SaleHasReservationsException.class)
    ResponseEntity<ProblemDetail> saleHasReservations(SaleHasReservationsException e) {
        ProblemDetail problem = Problems.of(ProblemCode.SALE_HAS_RESERVATIONS,
                "the sale was loaded before and Redis lost it: its reservations may still be on their way, so it is"
                        + " not warmed up with its original totals; reconciliation rebuilds it from the database of"
                        + " record once they have landed (POST .../reconciliation to run it now)");
        problem.setProperty("activityId", e.activityId().value());
        return Problems.response(problem);
    }

    @ExceptionHandler(NotFoundException.class)
    ResponseEntity<ProblemDetail> notFound(NotFoundException e) {
        return Problems.response(Problems.of(e.code(), e.getMessage()));
    }

    /** A warm-up refused while Redis may evict a sale's keys: the operator's configuration to fix (ADR 77). */
    @ExceptionHandler(HotStoreMayEvictException.class)
    ResponseEntity<ProblemDetail> hotStoreMayEvict(HotStoreMayEvictException e) {
        LOG.error("warm-up refused: {}", e.getMessage());
        ProblemDetail problem = Problems.of(ProblemCode.HOT_STORE_MAY_EVICT, e.getMessage());
        problem.setProperty("policies", e.unsafe().stream().map(NodeEvictionPolicy::toString).toList());
        return Problems.response(problem);
    }

    /** The broker did not take an event (a dead-letter replay): nothing changed, the admin may try again. */
    @ExceptionHandler(EventPublishException.class)
    ResponseEntity<ProblemDetail> notPublished(EventPublishException e) {
        LOG.warn("an event was not acknowledged by the broker: {}", e.getMessage());
        return Problems.status(ProblemCode.UNAVAILABLE.status())
                .header(HttpHeaders.RETRY_AFTER, Problems.RETRY_AFTER_SECONDS)
                .body(Problems.of(ProblemCode.UNAVAILABLE, "the message broker did not accept the event; try again"));
    }

    /**
     * A store the call needs did not answer in time (the database of record or Redis: a cut, a black hole, an
     * exhausted pool, a timeout): a condition that passes, so 503 with {@code Retry-After}, never 500. What the call
     * would have changed was done whole or not at all; a retry finds which.
     */
    @ExceptionHandler(StoreUnavailableException.class)
    ResponseEntity<ProblemDetail> storeUnavailable(StoreUnavailableException e, WebRequest request) {
        LOG.warn("a store did not answer on {}: {}", request.getDescription(false), rootMessage(e));
        return Problems.status(ProblemCode.UNAVAILABLE.status())
                .header(HttpHeaders.RETRY_AFTER, Problems.RETRY_AFTER_SECONDS)
                .body(Problems.of(ProblemCode.UNAVAILABLE, "a store this call needs did not answer in time; try again"));
    }

    /**
     * The change met another one on the same rows (a deadlock, a lock wait that timed out) and was rolled back whole:
     * 503 {@code BUSY} with {@code Retry-After}, not 409, since nothing about the request is wrong and the same request
     * may pass a moment later; not {@code UNAVAILABLE}, since the database answered (ADR 53).
     */
    @ExceptionHandler(StoreContentionException.class)
    ResponseEntity<ProblemDetail> storeBusy(StoreContentionException e, WebRequest request) {
        LOG.warn("lock contention on {}: {}", request.getDescription(false), rootMessage(e));
        return Problems.status(ProblemCode.BUSY.status())
                .header(HttpHeaders.RETRY_AFTER, Problems.RETRY_AFTER_SECONDS)
                .body(Problems.of(ProblemCode.BUSY, "the change met another one on the same data and was not made; "
                        + "try again"));
    }

    /** The hot store's figures drifted: reconciliation repairs them from the database; an error log names the SKU. */
    @ExceptionHandler(HotStoreFiguresDisagreeException.class)
    ResponseEntity<ProblemDetail> figuresUnderRepair(HotStoreFiguresDisagreeException e, WebRequest request) {
        LOG.error("the hot store's figures disagree on {}: {}", request.getDescription(false), e.getMessage());
        return Problems.status(ProblemCode.STOCK_FIGURES_UNDER_REPAIR.status())
                .header(HttpHeaders.RETRY_AFTER, Problems.RETRY_AFTER_SECONDS)
                .body(Problems.of(ProblemCode.STOCK_FIGURES_UNDER_REPAIR,
                        "the sale's stock figures are being repaired; try again"));
    }

    /** Redis is out and the database path cannot take this attempt now: nothing was reserved, try again. */
    @ExceptionHandler(DegradedException.class)
    ResponseEntity<ProblemDetail> degraded(DegradedException e) {
        long seconds = Math.max(1, (e.retryAfter().toMillis() + 999) / 1000);
        return Problems.status(ProblemCode.DEGRADED.status())
                .header(HttpHeaders.RETRY_AFTER, Long.toString(seconds))
                .body(Problems.of(ProblemCode.DEGRADED, e.getMessage()));
    }

    @ExceptionHandler(UnauthorizedException.class)
    ResponseEntity<ProblemDetail> unauthorized(UnauthorizedException e) {
        return Problems.status(ProblemCode.UNAUTHORIZED.status())
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer")
                .body(Problems.of(ProblemCode.UNAUTHORIZED, "a valid admin bearer token is required"));
    }

    @ExceptionHandler(BuyerPaymentDisabledException.class)
    ResponseEntity<ProblemDetail> buyerPaymentDisabled(BuyerPaymentDisabledException e) {
        return Problems.response(Problems.of(ProblemCode.BUYER_PAYMENT_DISABLED, e.getMessage()));
    }

    @ExceptionHandler(AdminAttemptsBlockedException.class)
    ResponseEntity<ProblemDetail> adminAttemptsBlocked(AdminAttemptsBlockedException e) {
        return Problems.status(ProblemCode.RATE_LIMITED.status())
                .header(HttpHeaders.RETRY_AFTER, Long.toString(e.retryAfterSeconds()))
                .body(e.problem());
    }

    @ExceptionHandler(BuyerAuthenticationException.class)
    ResponseEntity<ProblemDetail> notABuyer(BuyerAuthenticationException e) {
        var answer = Problems.status(e.code().status());
        if (e.aboutBearerToken()) {
            answer.header(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
        }
        return answer.body(Problems.of(e.code(), e.getMessage()));
    }

    @ExceptionHandler(PayloadTooLargeException.class)
    void payloadTooLarge(PayloadTooLargeException e, ServletWebRequest request) {
        writeNow(request, Problems.of(ProblemCode.PAYLOAD_TOO_LARGE, "the request body is too large"));
    }

    /**
     * The container could not decode the request's parameters: a form body or a query string that is not valid UTF-8,
     * or too many of them. Found by the fuzzer (docs/reliability.md, defect 14): a form-encoded reservation whose body
     * held undecodable bytes was a 500, where a decodable one is 415. No endpoint takes a form, so a form body is 415
     * whatever its bytes; otherwise the client error Tomcat names (413 for too many parameters, else 400).
     */
    @ExceptionHandler(InvalidParameterException.class)
    ResponseEntity<ProblemDetail> undecodableParameters(InvalidParameterException e, ServletWebRequest request) {
        String contentType = request.getRequest().getContentType();
        if (contentType != null && contentType.regionMatches(true, 0, MediaType.APPLICATION_FORM_URLENCODED_VALUE, 0,
                MediaType.APPLICATION_FORM_URLENCODED_VALUE.length())) {
            return Problems.response(Problems.of(ProblemCode.UNSUPPORTED_MEDIA_TYPE,
                    "the request body must be application/json"));
        }
        ProblemCode code = e.getErrorCode() == HttpStatus.CONTENT_TOO_LARGE.value() ? ProblemCode.PAYLOAD_TOO_LARGE
                : ProblemCode.REQUEST_REJECTED;
        return Problems.response(Problems.of(code, "the request's parameters could not be decoded"));
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> unexpected(Exception e, WebRequest request) {
        LOG.error("unexpected failure on {}", request.getDescription(false), e);
        return Problems.response(Problems.of(ProblemCode.INTERNAL, "something went wrong on our side"));
    }

    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException e, HttpHeaders headers,
                                                                  HttpStatusCode status, WebRequest request) {
        return handleExceptionInternal(e, Problems.validation(FieldErrors.of(e.getBindingResult())), headers,
                ProblemCode.VALIDATION.status(), request);
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException e, HttpHeaders headers,
                                                                  HttpStatusCode status, WebRequest request) {
        if (causedBy(e, PayloadTooLargeException.class) && request instanceof ServletWebRequest servlet
                && servlet.getResponse() != null) {
            writeNow(servlet, Problems.of(ProblemCode.PAYLOAD_TOO_LARGE, "the request body is too large"));
            return null;
        }
        return handleExceptionInternal(e, Problems.validation(List.of(FieldErrors.of(e))), headers,
                ProblemCode.VALIDATION.status(), request);
    }

    /** Spring MVC's own problems (404, 405, 415, ...) keep their status and get the matching code. */
    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception e, Object body, HttpHeaders headers,
                                                             HttpStatusCode status, WebRequest request) {
        ProblemDetail problem = body instanceof ProblemDetail detail ? detail
                : Problems.of(status, ProblemCode.forStatus(status.value()), null);
        if (problem.getProperties() == null || !problem.getProperties().containsKey(Problems.CODE)) {
            problem.setProperty(Problems.CODE, ProblemCode.forStatus(status.value()).name());
        }
        if (ProblemCode.VALIDATION.name().equals(problem.getProperties().get(Problems.CODE))
                && !problem.getProperties().containsKey(Problems.ERRORS)) {
            problem.setProperty(Problems.ERRORS, List.of(new FieldErrorResponse(FieldErrors.BODY, problem.getDetail())));
        }
        HttpHeaders problemHeaders = new HttpHeaders();
        if (headers != null) {
            problemHeaders.putAll(headers);
        }
        // Set, not negotiated: see Problems.status.
        problemHeaders.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        return super.handleExceptionInternal(e, problem, problemHeaders, status, request);
    }

    private void writeNow(ServletWebRequest request, ProblemDetail problem) {
        try {
            completeProblems.write(request.getRequest(), request.getResponse(), problem);
        } catch (IOException e) {
            // The client went away while we refused its body; there is nobody left to answer.
            LOG.debug("could not answer a refused request body", e);
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.toString();
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return true;
            }
        }
        return false;
    }
}
