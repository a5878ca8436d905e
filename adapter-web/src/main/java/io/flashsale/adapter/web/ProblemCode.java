package io.flashsale.adapter.web;

import org.springframework.http.HttpStatus;

/** The stable {@code code} of every problem the API answers with, and the status it goes with. */
public enum ProblemCode {
    VALIDATION(HttpStatus.BAD_REQUEST),
    UNAUTHORIZED(HttpStatus.UNAUTHORIZED),
    MISSING_USER(HttpStatus.UNAUTHORIZED),
    /** A payment notification whose {@code Flashsale-Signature} is missing, malformed, stale or does not match. */
    SIGNATURE_INVALID(HttpStatus.UNAUTHORIZED),
    /** A buyer's own payment confirmation: only the payment provider confirms payments here. */
    BUYER_PAYMENT_DISABLED(HttpStatus.FORBIDDEN),
    /** A buyer call without an {@code Authorization: Bearer} token (buyer tokens, ADR 76). */
    TOKEN_MISSING(HttpStatus.UNAUTHORIZED),
    /** A buyer token that is not accepted: its form, algorithm, signature, {@code nbf} or buyer claim. */
    TOKEN_INVALID(HttpStatus.UNAUTHORIZED),
    /** A buyer token past its {@code exp} (and the allowed clock skew): get a new one. */
    TOKEN_EXPIRED(HttpStatus.UNAUTHORIZED),
    /** A buyer call without the gateway's shared secret, where buyers are taken from a trusted gateway's header. */
    GATEWAY_SECRET_INVALID(HttpStatus.UNAUTHORIZED),
    /** A browser's state-changing buyer call sent from another site (Origin or Sec-Fetch-Site). */
    CROSS_SITE_REQUEST(HttpStatus.FORBIDDEN),
    /**
     * The attempt was refused by the risk control before the hot store ({@code blockedBy}: buyer, address or device on
     * the blocklist, or shared-device: one device with too many buyers lately). Nothing was deducted.
     */
    BLOCKED(HttpStatus.FORBIDDEN),
    /** An approval of one's own stock adjustment proposal: a different operator must approve it (ADR 84). */
    SAME_OPERATOR(HttpStatus.FORBIDDEN),
    NOT_FOUND(HttpStatus.NOT_FOUND),
    ACTIVITY_NOT_FOUND(HttpStatus.NOT_FOUND),
    RESERVATION_NOT_FOUND(HttpStatus.NOT_FOUND),
    DEAD_LETTER_NOT_FOUND(HttpStatus.NOT_FOUND),
    BLOCKLIST_ENTRY_NOT_FOUND(HttpStatus.NOT_FOUND),
    /** The activity has no stock adjustment proposal of this id. */
    PROPOSAL_NOT_FOUND(HttpStatus.NOT_FOUND),
    /** The activity offers no such SKU. */
    SKU_NOT_FOUND(HttpStatus.NOT_FOUND),
    METHOD_NOT_ALLOWED(HttpStatus.METHOD_NOT_ALLOWED),
    NOT_ACCEPTABLE(HttpStatus.NOT_ACCEPTABLE),
    ACTIVITY_EXISTS(HttpStatus.CONFLICT),
    /**
     * An approval of a repair no reconciliation report waits for (ADR 85): the SKU was never reported NEEDS_REVIEW, or
     * its review was closed already (approved by someone else, or the drift went away).
     */
    NO_REPAIR_AWAITING_APPROVAL(HttpStatus.CONFLICT),
    /** The value is on the blocklist already (of its kind); nothing changed. */
    BLOCKLIST_ENTRY_EXISTS(HttpStatus.CONFLICT),
    SOLD_OUT(HttpStatus.CONFLICT),
    INSUFFICIENT_STOCK(HttpStatus.CONFLICT),
    LIMIT_EXCEEDED(HttpStatus.CONFLICT),
    NOT_STARTED(HttpStatus.CONFLICT),
    ENDED(HttpStatus.CONFLICT),
    /** An operator paused the sale (ADR 79): nothing was reserved; it may be resumed. */
    SALE_PAUSED(HttpStatus.CONFLICT),
    /** A window move of a sale that has ended ({@code endsAt}): its window is closed for good. */
    SALE_ENDED(HttpStatus.CONFLICT),
    /** A move of the start of a sale that has started ({@code startsAt}): only its end may move. */
    SALE_STARTED(HttpStatus.CONFLICT),
    /** A window move that would end the sale now or in the past: a running sale is never cut short below now. */
    ENDS_NOT_AFTER_NOW(HttpStatus.CONFLICT),
    /** A window move whose end would not come after its start. */
    ENDS_NOT_AFTER_START(HttpStatus.UNPROCESSABLE_CONTENT),
    /** A window move whose start would be in the past. */
    STARTS_BEFORE_NOW(HttpStatus.UNPROCESSABLE_CONTENT),
    /** The reservation cannot be paid in its status ({@code reservationStatus}); RESERVED: try again shortly. */
    NOT_PAYABLE(HttpStatus.CONFLICT),
    /**
     * A second payment of an order paid under another payment reference (or a reference that paid another order):
     * recorded, nothing changed; the provider refunds it.
     */
    PAYMENT_CONFLICT(HttpStatus.CONFLICT),
    /**
     * A payment of an order that can no longer be paid ({@code reservationStatus}: EXPIRED, also past its deadline;
     * CANCELLED; FAILED): recorded, nothing changed; the provider refunds it.
     */
    PAYMENT_REFUSED(HttpStatus.CONFLICT),
    /** The reservation cannot be cancelled in its status ({@code reservationStatus}). */
    NOT_CANCELLABLE(HttpStatus.CONFLICT),
    /** An archive of a sale that has not ended ({@code endsAt}). */
    ACTIVITY_NOT_ENDED(HttpStatus.CONFLICT),
    /** An archive of a sale whose reservations are still on their way to the database of record. */
    RESERVATIONS_PENDING(HttpStatus.CONFLICT),
    /** The sale was archived: it is never loaded into Redis again. */
    ACTIVITY_ARCHIVED(HttpStatus.CONFLICT),
    /**
     * The sale is in slices ({@code slices} on its creation) and the operation ({@code operation}) cannot be done slice
     * by slice on the hot store the service runs on (one without slices): refused whole, nothing read or written. The
     * service on Redis reconciles, rebuilds and adjusts a sale in slices slice by slice (ADR 110, 111, 112).
     */
    SALE_IN_SLICES(HttpStatus.CONFLICT),
    /**
     * A warm-up of a sale Redis lost after it was loaded: its reservations may be anywhere in the pipeline, so it is
     * never warmed up with its original totals; reconciliation rebuilds it once what was in flight has landed.
     */
    SALE_HAS_RESERVATIONS(HttpStatus.CONFLICT),
    /** A stock adjustment that would put the total ({@code stock}) below the units already sold ({@code sold}). */
    STOCK_BELOW_SOLD(HttpStatus.CONFLICT),
    /** An approval of a proposal left pending past its {@code expiresAt}: propose it again. Nothing changed. */
    PROPOSAL_EXPIRED(HttpStatus.CONFLICT),
    /** A decision on a proposal approved, rejected or withdrawn already ({@code proposalStatus}). Nothing changed. */
    PROPOSAL_CLOSED(HttpStatus.CONFLICT),
    PAYLOAD_TOO_LARGE(HttpStatus.CONTENT_TOO_LARGE),
    UNSUPPORTED_MEDIA_TYPE(HttpStatus.UNSUPPORTED_MEDIA_TYPE),
    UNKNOWN_SKU(HttpStatus.UNPROCESSABLE_CONTENT),
    /** A stock adjustment that would put the total ({@code stock}) above the largest an item may have. */
    STOCK_ABOVE_MAXIMUM(HttpStatus.UNPROCESSABLE_CONTENT),
    /** Any other client error the framework or the container refused the request with. */
    REQUEST_REJECTED(HttpStatus.BAD_REQUEST),
    /**
     * Too many attempts too fast under one rate limit ({@code limit}: buyer, client or sale); try again after
     * {@code Retry-After} seconds. Nothing was reserved.
     */
    RATE_LIMITED(HttpStatus.TOO_MANY_REQUESTS),
    INTERNAL(HttpStatus.INTERNAL_SERVER_ERROR),
    NOT_READY(HttpStatus.SERVICE_UNAVAILABLE),
    /**
     * The buyer's share of a sale in slices ran short of the SKU ({@code skuId}) while units of it remain in another
     * slice and are being moved over (ADR 109): not sold out; try again after {@code Retry-After} seconds (at the
     * soonest after {@code retryAfterMillis}). Nothing was reserved.
     */
    TRY_AGAIN(HttpStatus.SERVICE_UNAVAILABLE),
    /** No payment notification secret is configured: notifications are refused until one is (the provider retries). */
    PAYMENT_NOTIFICATIONS_DISABLED(HttpStatus.SERVICE_UNAVAILABLE),
    /**
     * A store did not answer in time (the database of record, or Redis outside the reservation path), or the broker did
     * not take an event: a condition that passes;
     * try again after {@code Retry-After}. What the call would have changed was done whole or not at all.
     */
    UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE),
    /** Redis is out and the database path cannot take the attempt now (at its concurrency limit, or rebuilding). */
    DEGRADED(HttpStatus.SERVICE_UNAVAILABLE),
    /**
     * A warm-up refused because Redis's {@code maxmemory-policy} may evict a sale's keys ({@code policies}): nothing was
     * loaded. No {@code Retry-After}: an operator sets the policy to {@code noeviction} first (ADR 77).
     */
    HOT_STORE_MAY_EVICT(HttpStatus.SERVICE_UNAVAILABLE),
    /**
     * The hot store's stock figures for the sale contradict each other (drift): reconciliation repairs them from the
     * database of record; try again after {@code Retry-After}. Reservations are still judged atomically meanwhile.
     */
    STOCK_FIGURES_UNDER_REPAIR(HttpStatus.SERVICE_UNAVAILABLE),
    /**
     * The change met another one on the same rows in the database of record (a deadlock, a lock wait that timed out)
     * and was rolled back whole; try again after {@code Retry-After}.
     */
    BUSY(HttpStatus.SERVICE_UNAVAILABLE);

    private final HttpStatus status;

    ProblemCode(HttpStatus status) {
        this.status = status;
    }

    public HttpStatus status() {
        return status;
    }

    /** The generic code for a status that Spring MVC or the servlet container decided on. */
    public static ProblemCode forStatus(int status) {
        return switch (status) {
            case 400 -> VALIDATION;
            case 401 -> UNAUTHORIZED;
            case 404 -> NOT_FOUND;
            case 405 -> METHOD_NOT_ALLOWED;
            case 406 -> NOT_ACCEPTABLE;
            case 413 -> PAYLOAD_TOO_LARGE;
            case 415 -> UNSUPPORTED_MEDIA_TYPE;
            case 503 -> UNAVAILABLE;
            default -> status >= 400 && status < 500 ? REQUEST_REJECTED : INTERNAL;
        };
    }
}
