package io.flashsale.adapter.web.openapi;

import io.flashsale.adapter.web.ProblemCode;
import io.flashsale.adapter.web.security.AdminOnly;
import io.flashsale.adapter.web.security.BuyerConfirmedPayment;
import io.flashsale.adapter.web.security.NotificationSignature;
import io.flashsale.application.reservation.model.AttemptOrigin;
import io.flashsale.domain.reservation.BuyerId;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.HeaderParameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springframework.core.MethodParameter;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.method.HandlerMethod;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Adds to each operation the problems it can answer with, grouped by status, each listing its codes. Most follow from
 * the handler method (admin only, a buyer, a body, path ids); the business refusals of an endpoint are in
 * {@link #REFUSALS}, keyed by method and path, and so are the success statuses other than 200.
 */
public final class ProblemResponses implements OperationCustomizer {

    /** The names the API description's components give the problem body and the two bearer schemes. */
    public static final String PROBLEM_SCHEMA = "Problem";
    public static final String ADMIN_SCHEME = "admin";
    public static final String BUYER_SCHEME = "buyer";
    static final String PROBLEM_JSON = "application/problem+json";
    static final String CODES_EXTENSION = "x-problem-codes";

    private static final Map<String, Set<ProblemCode>> REFUSALS = Map.ofEntries(
            Map.entry("POST /api/v1/activities", EnumSet.of(ProblemCode.ACTIVITY_EXISTS)),
            Map.entry("POST /api/v1/activities/{activityId}/reservations", EnumSet.of(ProblemCode.SOLD_OUT,
                    ProblemCode.INSUFFICIENT_STOCK, ProblemCode.LIMIT_EXCEEDED, ProblemCode.NOT_STARTED,
                    ProblemCode.ENDED, ProblemCode.SALE_PAUSED, ProblemCode.UNKNOWN_SKU, ProblemCode.NOT_READY,
                    ProblemCode.DEGRADED, ProblemCode.TRY_AGAIN, ProblemCode.RATE_LIMITED, ProblemCode.BLOCKED)),
            Map.entry("POST /api/v1/admin/blocklist", EnumSet.of(ProblemCode.BLOCKLIST_ENTRY_EXISTS)),
            Map.entry("DELETE /api/v1/admin/blocklist", EnumSet.of(ProblemCode.BLOCKLIST_ENTRY_NOT_FOUND)),
            Map.entry("GET /api/v1/activities/{activityId}", EnumSet.of(ProblemCode.STOCK_FIGURES_UNDER_REPAIR)),
            Map.entry("GET /api/v1/activities/{activityId}/stock", EnumSet.of(ProblemCode.DEGRADED,
                    ProblemCode.STOCK_FIGURES_UNDER_REPAIR)),
            Map.entry("POST /api/v1/activities/{activityId}/warm-up", EnumSet.of(ProblemCode.ACTIVITY_ARCHIVED,
                    ProblemCode.SALE_HAS_RESERVATIONS, ProblemCode.HOT_STORE_MAY_EVICT)),
            Map.entry("POST /api/v1/activities/{activityId}/archive", EnumSet.of(ProblemCode.ACTIVITY_NOT_ENDED,
                    ProblemCode.RESERVATIONS_PENDING)),
            Map.entry("POST /api/v1/activities/{activityId}/pause", EnumSet.of(ProblemCode.ACTIVITY_ARCHIVED)),
            Map.entry("POST /api/v1/activities/{activityId}/resume", EnumSet.of(ProblemCode.ACTIVITY_ARCHIVED)),
            Map.entry("PATCH /api/v1/activities/{activityId}", EnumSet.of(ProblemCode.ACTIVITY_ARCHIVED,
                    ProblemCode.SALE_ENDED, ProblemCode.SALE_STARTED, ProblemCode.ENDS_NOT_AFTER_NOW,
                    ProblemCode.ENDS_NOT_AFTER_START, ProblemCode.STARTS_BEFORE_NOW)),
            // DEGRADED: Redis is out and the reservation may be one it accepted that MySQL has not placed yet.
            Map.entry("GET /api/v1/reservations/{reservationId}", EnumSet.of(ProblemCode.DEGRADED)),
            Map.entry("POST /api/v1/reservations/{reservationId}/payment", EnumSet.of(ProblemCode.NOT_PAYABLE,
                    ProblemCode.DEGRADED)),
            Map.entry("POST /api/v1/reservations/{reservationId}/cancellation",
                    EnumSet.of(ProblemCode.NOT_CANCELLABLE, ProblemCode.DEGRADED)),
            Map.entry("POST /api/v1/payments/notifications", EnumSet.of(ProblemCode.SIGNATURE_INVALID,
                    ProblemCode.PAYMENT_NOTIFICATIONS_DISABLED, ProblemCode.PAYMENT_CONFLICT, ProblemCode.PAYMENT_REFUSED,
                    ProblemCode.NOT_PAYABLE, ProblemCode.RESERVATION_NOT_FOUND, ProblemCode.DEGRADED)),
            Map.entry("POST /api/v1/activities/{activityId}/stock-adjustments", EnumSet.of(ProblemCode.SKU_NOT_FOUND,
                    ProblemCode.ACTIVITY_ARCHIVED)),
            Map.entry("POST /api/v1/activities/{activityId}/stock-adjustments/proposals/{proposalId}/approval",
                    EnumSet.of(ProblemCode.SAME_OPERATOR, ProblemCode.PROPOSAL_EXPIRED, ProblemCode.PROPOSAL_CLOSED,
                            ProblemCode.STOCK_BELOW_SOLD, ProblemCode.STOCK_ABOVE_MAXIMUM,
                            ProblemCode.ACTIVITY_ARCHIVED)),
            Map.entry("POST /api/v1/activities/{activityId}/stock-adjustments/proposals/{proposalId}/rejection",
                    EnumSet.of(ProblemCode.PROPOSAL_CLOSED)),
            Map.entry("POST /api/v1/activities/{activityId}/reconciliation/{skuId}/approve-repair",
                    EnumSet.of(ProblemCode.SKU_NOT_FOUND, ProblemCode.NO_REPAIR_AWAITING_APPROVAL,
                            ProblemCode.ACTIVITY_ARCHIVED, ProblemCode.NOT_READY)));
    /** Operations whose success is not 200 (the status the controller's ResponseEntity sets, which springdoc cannot see). */
    private static final Map<String, Integer> SUCCESS = Map.of(
            "POST /api/v1/activities", 201,
            "POST /api/v1/activities/{activityId}/reservations", 202,
            "POST /api/v1/activities/{activityId}/stock-adjustments", 202,
            "POST /api/v1/admin/blocklist", 201,
            "DELETE /api/v1/admin/blocklist", 204,
            "POST /api/v1/admin/dead-letters/{deadLetterId}/replay", 202);
    /** The payment provider's notifications, signed instead of carrying a buyer or an admin token. */
    private static final String SIGNED = "POST /api/v1/payments/notifications";
    /** Reads answered with a strong ETag and 304 to an If-None-Match that names it (ADR 66). */
    private static final Set<String> CONDITIONAL_READS = Set.of("GET /api/v1/activities/{activityId}");
    private static final Map<String, ProblemCode> NOT_FOUND_BY_PATH_ID = Map.of(
            "activityId", ProblemCode.ACTIVITY_NOT_FOUND,
            "reservationId", ProblemCode.RESERVATION_NOT_FOUND,
            "deadLetterId", ProblemCode.DEAD_LETTER_NOT_FOUND,
            "proposalId", ProblemCode.PROPOSAL_NOT_FOUND);

    @Override
    public Operation customize(Operation operation, HandlerMethod handler) {
        // Every operation reads or writes the database of record (or may, while Redis is out): when it does not
        // answer in time the call is 503 UNAVAILABLE with Retry-After, as a broker that refuses an event is.
        Set<ProblemCode> codes = EnumSet.of(ProblemCode.INTERNAL, ProblemCode.UNAVAILABLE);
        // A call that changes the database of record may meet another change on the same rows (ADR 53).
        if (!route(handler).startsWith("GET ")) {
            codes.add(ProblemCode.BUSY);
        }
        if (isAdminOnly(handler)) {
            codes.add(ProblemCode.UNAUTHORIZED);
            operation.addSecurityItem(new SecurityRequirement().addList(ADMIN_SCHEME));
        }
        if (handler.hasMethodAnnotation(BuyerConfirmedPayment.class)) {
            codes.add(ProblemCode.BUYER_PAYMENT_DISABLED);
        }
        if (SIGNED.equals(route(handler))) {
            operation.addParametersItem(new HeaderParameter().name(NotificationSignature.HEADER).required(true)
                    .description("t=<unix seconds>,v1=<hex HMAC-SHA256 of \"<t>.<raw body>\"> keyed with the "
                            + "notification secret; at most 5 minutes (flashsale.payment.signature-tolerance) from now")
                    .schema(new Schema<String>().types(Set.of("string"))));
        }
        List<MethodParameter> parameters = Arrays.asList(handler.getMethodParameters());
        if (parameters.stream().anyMatch(parameter -> parameter.getParameterType() == BuyerId.class)) {
            // Either way of naming the buyer (ADR 76), as flashsale.security.buyer-auth says.
            codes.addAll(EnumSet.of(ProblemCode.MISSING_USER, ProblemCode.GATEWAY_SECRET_INVALID,
                    ProblemCode.TOKEN_MISSING, ProblemCode.TOKEN_INVALID, ProblemCode.TOKEN_EXPIRED));
            operation.addParametersItem(new HeaderParameter().name("X-User-Id").required(false)
                    .description("buyer-auth=trusted-header only (jwt, the default, ignores it): the buyer, set by "
                            + "the gateway; 1-64 characters of [A-Za-z0-9_-]")
                    .schema(new Schema<String>().type("string").pattern("^[A-Za-z0-9_-]{1,64}$")));
            operation.addSecurityItem(new SecurityRequirement().addList(BUYER_SCHEME));
        }
        if (parameters.stream().anyMatch(parameter -> parameter.getParameterType() == AttemptOrigin.class)) {
            operation.addParametersItem(new HeaderParameter().name("X-Device-Id").required(false)
                    .description("the client's device, for the risk control's blocklist and its limit of buyers per "
                            + "device (flashsale.risk.device.*, ADR 81); 1-128 characters of [A-Za-z0-9._:-]")
                    .schema(new Schema<String>().type("string").pattern("^[A-Za-z0-9._:-]{1,128}$")));
        }
        if (parameters.stream().anyMatch(parameter -> parameter.hasParameterAnnotation(RequestBody.class))) {
            codes.addAll(EnumSet.of(ProblemCode.VALIDATION, ProblemCode.PAYLOAD_TOO_LARGE,
                    ProblemCode.UNSUPPORTED_MEDIA_TYPE));
        }
        if (parameters.stream().anyMatch(parameter -> parameter.hasParameterAnnotation(RequestParam.class))) {
            codes.add(ProblemCode.VALIDATION);
        }
        for (MethodParameter parameter : parameters) {
            PathVariable path = parameter.getParameterAnnotation(PathVariable.class);
            if (path != null) {
                codes.add(ProblemCode.VALIDATION);
                String name = path.value().isEmpty() ? path.name() : path.value();
                ProblemCode notFound = NOT_FOUND_BY_PATH_ID.get(name.isEmpty() ? parameter.getParameterName() : name);
                if (notFound != null) {
                    codes.add(notFound);
                }
            }
        }
        codes.addAll(REFUSALS.getOrDefault(route(handler), Set.of()));

        ApiResponses responses = operation.getResponses() == null ? new ApiResponses() : operation.getResponses();
        Integer success = SUCCESS.get(route(handler));
        ApiResponse ok = responses.get("200");
        if (success != null && ok != null) {
            responses.remove("200");
            responses.addApiResponse(Integer.toString(success), ok.description(switch (success) {
                case 201 -> "Created";
                case 204 -> "No Content";
                default -> "Accepted";
            }));
        }
        if (CONDITIONAL_READS.contains(route(handler))) {
            notModified(operation, responses);
        }
        Map<Integer, List<ProblemCode>> byStatus = codes.stream().collect(Collectors.groupingBy(
                code -> code.status().value(), TreeMap::new, Collectors.toList()));
        byStatus.forEach((status, inStatus) -> responses.addApiResponse(Integer.toString(status), problem(inStatus)));
        operation.setResponses(responses);
        return operation;
    }

    private static void notModified(Operation operation, ApiResponses responses) {
        operation.addParametersItem(new HeaderParameter().name("If-None-Match").required(false)
                .description("the ETag of the copy the client holds")
                .schema(new Schema<String>().types(Set.of("string"))));
        ApiResponse ok = responses.get("200");
        if (ok != null) {
            ok.addHeaderObject("ETag", new Header().description("strong: a digest of the body")
                    .schema(new Schema<String>().types(Set.of("string"))));
        }
        responses.addApiResponse("304", new ApiResponse()
                .description("Not Modified: the copy If-None-Match names is current; no body"));
    }

    private static ApiResponse problem(List<ProblemCode> codes) {
        List<String> names = codes.stream().map(Enum::name).toList();
        Schema<?> schema = new Schema<>().$ref("#/components/schemas/" + PROBLEM_SCHEMA);
        ApiResponse response = new ApiResponse()
                .description(names.stream().map(name -> "`" + name + "`").collect(Collectors.joining(", ")))
                .content(new Content().addMediaType(PROBLEM_JSON, new MediaType().schema(schema)));
        response.addExtension(CODES_EXTENSION, names);
        return response;
    }

    private static boolean isAdminOnly(HandlerMethod handler) {
        return handler.hasMethodAnnotation(AdminOnly.class)
                || AnnotatedElementUtils.hasAnnotation(handler.getBeanType(), AdminOnly.class);
    }

    /** {@code METHOD /path} from the class's and the method's mappings (one each, as every controller here has). */
    static String route(HandlerMethod handler) {
        RequestMapping onClass = AnnotatedElementUtils.findMergedAnnotation(handler.getBeanType(), RequestMapping.class);
        RequestMapping onMethod = AnnotatedElementUtils.findMergedAnnotation(handler.getMethod(), RequestMapping.class);
        String path = first(onClass) + first(onMethod);
        String method = onMethod == null || onMethod.method().length == 0 ? "ANY" : onMethod.method()[0].name();
        return method + " " + path;
    }

    private static String first(RequestMapping mapping) {
        return mapping == null || mapping.path().length == 0 ? "" : mapping.path()[0];
    }
}
