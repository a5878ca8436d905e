package io.flashsale.chaos.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import io.flashsale.chaos.fuzz.FuzzedRequest.Header;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.testsupport.TestBuyerTokens;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns fuzzer bytes into requests against the whole API: mostly reservations of the fuzzed sale with odd values (so
 * the inputs reach past the JSON parser into validation and the reserve script), payments and cancellations of
 * reservations this run was granted, the operator's endpoints, new sales, unknown paths, and bytes on a bare socket.
 */
final class RequestGenerator {

    private static final List<String> METHODS = List.of("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS",
            "TRACE");
    private static final List<String> CONTENT_TYPES = List.of("application/json", "application/json",
            "application/json; charset=utf-8", "application/json;charset=ISO-8859-1", "text/plain", "application/xml",
            "application/problem+json", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "");
    private static final List<String> ACCEPTS = List.of("application/json", "application/problem+json", "*/*",
            "text/html", "application/xml", "text/plain;q=0.1", "application/json;q=0", "image/*");
    private static final List<String> EXTRA_HEADERS = List.of("X-Forwarded-For", "Accept-Charset", "Content-Encoding",
            "Transfer-Encoding", "X-Operator", "Cookie", "Origin", "X-User-Id", "Idempotency-Key", "Authorization",
            "Accept-Language", "Range", "If-Match", "Flashsale-Signature");
    private static final List<String> RESERVATION_SUFFIXES = List.of("/cancellation", "/cancellation", "/payment",
            "/payment", "", "", "/x", "/cancellation/", "/payment?x=1");
    private static final List<String> OPERATOR_SUFFIXES = List.of("/stock", "/reconciliation", "/reconciliation",
            "/stock-adjustments", "/warm-up", "/archive", "", "/reconciliation?max=");
    private static final int KNOWN_BUYERS = 200;

    private final String saleId;
    private final List<String> skus;
    private final String adminToken;
    private final SaleAccount account;

    RequestGenerator(String saleId, List<String> skus, String adminToken, SaleAccount account) {
        this.saleId = saleId;
        this.skus = skus;
        this.adminToken = adminToken;
        this.account = account;
    }

    FuzzedRequest next(FuzzedDataProvider data) {
        return switch (data.consumeInt(0, 15)) {
            case 0, 1, 2, 3, 4, 5, 6 -> reservation(data);
            case 7, 8 -> onReservation(data);
            case 9 -> rawReservationBody(data);
            case 10 -> adjustment(data);
            case 11 -> operator(data);
            case 12 -> newSale(data);
            case 13 -> elsewhere(data);
            default -> raw(data);
        };
    }

    private String reservationsPath() {
        return "/api/v1/activities/" + saleId + "/reservations";
    }

    /** A structured attempt: a request id or an Idempotency-Key (or both, or neither) and 0..51 lines. */
    private FuzzedRequest reservation(FuzzedDataProvider data) {
        List<Header> headers = new ArrayList<>();
        addBuyer(data, headers);
        String requestId = data.consumeBoolean() ? "r" + data.consumeInt(0, 3000) : null;
        List<String> fields = new ArrayList<>();
        if (requestId != null) {
            fields.add("\"requestId\":" + (data.consumeInt(0, 7) == 0 ? FuzzedJson.id(data, List.of(requestId))
                    : FuzzedJson.string(requestId)));
        }
        switch (data.consumeInt(0, 5)) {
            case 0 -> headers.add(new Header("Idempotency-Key",
                    requestId != null ? requestId : "k" + data.consumeInt(0, 3000)));
            case 1 -> headers.add(new Header("Idempotency-Key", data.consumeString(80)));
            default -> {
            }
        }
        fields.add("\"items\":" + lines(data));
        if (data.consumeInt(0, 9) == 0) {
            fields.add(FuzzedJson.string(data.consumeString(12)) + ":"
                    + (data.consumeBoolean() ? FuzzedJson.nesting(data) : FuzzedJson.oddValue(data)));
        }
        if (data.consumeInt(0, 19) == 0) {
            fields.add("\"items\":" + lines(data));
        }
        String json = "{" + String.join(",", fields) + "}";
        if (data.consumeInt(0, 19) == 0) {
            json = json.substring(0, data.consumeInt(0, json.length()));
        }
        headers.add(new Header("Content-Type", data.consumeInt(0, 5) == 0 ? data.pickValue(CONTENT_TYPES)
                : "application/json"));
        addAccept(data, headers);
        addExtraHeader(data, headers);
        return request(data.consumeInt(0, 15) == 0 ? data.pickValue(METHODS) : "POST", reservationsPath(), headers,
                json.getBytes(StandardCharsets.UTF_8), false);
    }

    private String lines(FuzzedDataProvider data) {
        return switch (data.consumeInt(0, 11)) {
            case 0 -> FuzzedJson.oddValue(data);
            case 1 -> FuzzedJson.nesting(data);
            case 2 -> manyLines(data, data.consumeInt(Reservation.MAX_LINES - 1, Reservation.MAX_LINES + 1));
            case 3, 4 -> manyLines(data, data.consumeInt(0, 4));
            default -> manyLines(data, 1);
        };
    }

    private String manyLines(FuzzedDataProvider data, int count) {
        List<String> lines = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            if (data.consumeInt(0, 15) == 0) {
                lines.add(FuzzedJson.oddValue(data));
                continue;
            }
            StringBuilder line = new StringBuilder("{\"skuId\":").append(FuzzedJson.id(data, skus))
                    .append(",\"quantity\":").append(FuzzedJson.count(data, ReservationLine.MAX_QUANTITY));
            if (data.consumeInt(0, 11) == 0) {
                line.append(',').append(FuzzedJson.string(data.consumeString(10))).append(':')
                        .append(FuzzedJson.nesting(data));
            }
            lines.add(line.append('}').toString());
        }
        return "[" + String.join(",", lines) + "]";
    }

    /** GET, payment or cancellation of a reservation this run was granted (mostly by its buyer), or of any id. */
    private FuzzedRequest onReservation(FuzzedDataProvider data) {
        List<Header> headers = new ArrayList<>();
        List<SaleAccount.Granted> granted = account.granted();
        String id;
        if (!granted.isEmpty() && data.consumeInt(0, 4) > 0) {
            SaleAccount.Granted reservation = data.pickValue(granted);
            id = reservation.id();
            if (data.consumeInt(0, 4) > 0) {
                headers.add(signedIn(reservation.buyer()));
            } else {
                addBuyer(data, headers);
            }
        } else {
            id = segment(data);
            addBuyer(data, headers);
        }
        addAccept(data, headers);
        addExtraHeader(data, headers);
        String method = data.consumeInt(0, 3) > 0 ? "POST" : data.pickValue(METHODS);
        byte[] body = data.consumeInt(0, 7) == 0 ? data.consumeBytes(200) : null;
        return request(method, "/api/v1/reservations/" + id + data.pickValue(RESERVATION_SUFFIXES), headers, body,
                false);
    }

    /** The reservations endpoint with any bytes as its body (invalid UTF-8 included) and any method or type. */
    private FuzzedRequest rawReservationBody(FuzzedDataProvider data) {
        List<Header> headers = new ArrayList<>();
        addBuyer(data, headers);
        headers.add(new Header("Content-Type", data.pickValue(CONTENT_TYPES)));
        addAccept(data, headers);
        addExtraHeader(data, headers);
        String method = data.consumeBoolean() ? "POST" : data.pickValue(METHODS);
        return request(method, reservationsPath(), headers, data.consumeRemainingAsBytes(), false);
    }

    private FuzzedRequest adjustment(FuzzedDataProvider data) {
        List<Header> headers = new ArrayList<>();
        boolean admin = addAdmin(data, headers, 9);
        if (data.consumeBoolean()) {
            headers.add(new Header("X-Operator", data.consumeString(70)));
        }
        headers.add(new Header("Content-Type", "application/json"));
        List<String> fields = new ArrayList<>();
        if (data.consumeInt(0, 9) > 0) {
            fields.add("\"skuId\":" + FuzzedJson.id(data, skus));
        }
        if (data.consumeInt(0, 9) > 0) {
            fields.add("\"delta\":" + FuzzedJson.delta(data, 1_000_000_000L));
        }
        if (data.consumeInt(0, 9) > 0) {
            fields.add("\"reason\":" + (data.consumeInt(0, 5) == 0 ? FuzzedJson.oddValue(data)
                    : FuzzedJson.string(data.consumeString(data.consumeInt(0, 1) == 0 ? 30 : 600))));
        }
        String method = data.consumeInt(0, 7) == 0 ? data.pickValue(METHODS) : "POST";
        return request(method, "/api/v1/activities/" + saleId + "/stock-adjustments", headers,
                ("{" + String.join(",", fields) + "}").getBytes(StandardCharsets.UTF_8), admin);
    }

    /** The operator's endpoints on the fuzzed sale and the service's, with the right token, a wrong one or none. */
    private FuzzedRequest operator(FuzzedDataProvider data) {
        List<Header> headers = new ArrayList<>();
        boolean admin = addAdmin(data, headers, 4);
        addAccept(data, headers);
        String path = switch (data.consumeInt(0, 5)) {
            case 0 -> "/api/v1/activities";
            case 1 -> "/api/v1/admin/dead-letters";
            case 2 -> "/api/v1/admin/dead-letters/" + segment(data) + "/replay";
            default -> {
                String suffix = data.pickValue(OPERATOR_SUFFIXES);
                yield "/api/v1/activities/" + saleId + suffix
                        + (suffix.endsWith("=") ? FuzzedJson.count(data, 1000).replace("\"", "") : "");
            }
        };
        String method = data.consumeBoolean() ? "POST" : data.pickValue(METHODS);
        byte[] body = data.consumeInt(0, 5) == 0 ? data.consumeBytes(300) : null;
        if (body != null) {
            headers.add(new Header("Content-Type", data.pickValue(CONTENT_TYPES)));
        }
        return request(method, path, headers, body, admin);
    }

    /** A new sale: mostly the right fields with odd values (windows, limits, stock, segments, payment windows). */
    private FuzzedRequest newSale(FuzzedDataProvider data) {
        List<Header> headers = new ArrayList<>();
        boolean admin = addAdmin(data, headers, 9);
        headers.add(new Header("Content-Type", "application/json"));
        List<String> fields = new ArrayList<>();
        if (data.consumeInt(0, 7) > 0) {
            fields.add("\"id\":" + FuzzedJson.id(data, List.of(saleId + "-" + data.consumeInt(0, 40), saleId)));
        }
        if (data.consumeInt(0, 7) > 0) {
            fields.add("\"name\":" + FuzzedJson.string(data.consumeString(data.consumeBoolean() ? 20 : 300)));
        }
        fields.add("\"startsAt\":" + instant(data));
        fields.add("\"endsAt\":" + instant(data));
        if (data.consumeBoolean()) {
            fields.add("\"perUserLimit\":" + FuzzedJson.count(data, PurchaseLimit.MAX));
        }
        if (data.consumeBoolean()) {
            fields.add("\"paymentTimeoutSeconds\":" + FuzzedJson.count(data, 31_536_000L));
        }
        List<String> items = new ArrayList<>();
        int count = data.consumeInt(0, 3);
        for (int i = 0; i < count; i++) {
            items.add("{\"skuId\":" + FuzzedJson.id(data, skus) + ",\"stock\":"
                    + FuzzedJson.count(data, ActivityItem.MAX_STOCK)
                    + (data.consumeBoolean() ? ",\"segments\":" + FuzzedJson.count(data, ActivityItem.MAX_SEGMENTS)
                    : "")
                    + (data.consumeBoolean() ? ",\"perUserLimit\":" + FuzzedJson.count(data, PurchaseLimit.MAX) : "")
                    + "}");
        }
        fields.add("\"items\":" + (data.consumeInt(0, 9) == 0 ? FuzzedJson.oddValue(data)
                : "[" + String.join(",", items) + "]"));
        return request("POST", "/api/v1/activities", headers,
                ("{" + String.join(",", fields) + "}").getBytes(StandardCharsets.UTF_8), admin);
    }

    private static String instant(FuzzedDataProvider data) {
        return switch (data.consumeInt(0, 5)) {
            case 0 -> FuzzedJson.string(data.consumeString(40));
            case 1 -> Long.toString(data.consumeLong());
            case 2 -> FuzzedJson.string(data.pickValue(List.of("+1000000000-01-01T00:00:00Z", "1970-01-01T00:00:00Z",
                    "2026-02-30T00:00:00Z", "2026-01-01T00:00:00+25:00", "-999999999-01-01T00:00:00Z")));
            default -> FuzzedJson.string(java.time.Instant.now()
                    .plusSeconds(data.consumeLong(-86_400, 86_400 * 30)).toString());
        };
    }

    /** Paths the API does not have, other sales' endpoints, and the service's own pages. */
    private FuzzedRequest elsewhere(FuzzedDataProvider data) {
        List<Header> headers = new ArrayList<>();
        addBuyer(data, headers);
        boolean admin = addAdmin(data, headers, 1);
        addAccept(data, headers);
        addExtraHeader(data, headers);
        String path = switch (data.consumeInt(0, 7)) {
            case 0 -> "/api/v1/activities/" + segment(data)
                    + data.pickValue(List.of("", "/reservations", "/stock", "/warm-up", "/x"));
            case 1 -> "/api/v1/activities/" + saleId + "/" + segment(data);
            case 2 -> data.pickValue(List.of("/", "/api", "/api/v1", "/actuator/health", "/actuator/prometheus",
                    "/error", "/v3/api-docs", "/api/v1/activities/", "/api/v1/reservations/",
                    "/api/v1/payments/notifications", "/api/v1/payments/notifications/", "/api/v1/payments"));
            case 3 -> "/actuator/" + segment(data);
            case 4 -> "/api/v1/activities/" + saleId + "/reservations/" + segment(data);
            default -> "/" + segment(data);
        };
        byte[] body = data.consumeBoolean() ? data.consumeBytes(300) : null;
        if (body != null) {
            headers.add(new Header("Content-Type", data.pickValue(CONTENT_TYPES)));
        }
        return request(data.pickValue(METHODS), path, headers, body, admin);
    }

    /** A request the HTTP client would not send: any method, path and header bytes, CR and LF included. */
    private FuzzedRequest raw(FuzzedDataProvider data) {
        List<Header> headers = new ArrayList<>();
        addBuyer(data, headers);
        boolean admin = addAdmin(data, headers, 3);
        int extra = data.consumeInt(0, 3);
        for (int i = 0; i < extra; i++) {
            headers.add(new Header(data.consumeBoolean() ? data.pickValue(EXTRA_HEADERS) : data.consumeString(20),
                    data.consumeString(100)));
        }
        String method = data.consumeBoolean() ? data.pickValue(METHODS) : data.consumeString(10);
        String path = switch (data.consumeInt(0, 3)) {
            case 0 -> reservationsPath() + data.consumeString(20);
            case 1 -> "/api/v1/activities/" + data.consumeString(60) + "/reservations";
            case 2 -> data.consumeString(100);
            default -> "/api/v1/reservations/" + data.consumeString(60);
        };
        return new FuzzedRequest(method, path, List.copyOf(headers), data.consumeRemainingAsBytes(), true, admin);
    }

    /**
     * No sign-in, a bearer value that is no token, a token of the tests' issuer naming anything, or (mostly) a known
     * buyer signed in. The service runs with buyer-auth=jwt,
             so a bare X-User-Id (one of the extra headers) names no one.
     */
    private void addBuyer(FuzzedDataProvider data, List<Header> headers) {
        switch (data.consumeInt(0, 9)) {
            case 0 -> {
            }
            case 1 -> headers.add(new Header("Authorization", "Bearer " + data.consumeString(200)));
            case 2 -> headers.add(signedIn(data.consumeString(70)));
            default -> headers.add(signedIn("fz" + data.consumeInt(0, KNOWN_BUYERS - 1)));
        }
    }

    private static Header signedIn(String buyer) {
        return new Header("Authorization", TestBuyerTokens.rsa().bearer(buyer));
    }

    /** The operator's token in {@code rightOf} of {@code rightOf + 1} cases, else a wrong one, another scheme, none. */
    private boolean addAdmin(FuzzedDataProvider data, List<Header> headers, int rightOf) {
        if (data.consumeInt(0, rightOf) > 0) {
            headers.add(new Header("Authorization", "Bearer " + adminToken));
            return true;
        }
        switch (data.consumeInt(0, 3)) {
            case 0 -> headers.add(new Header("Authorization", "Bearer " + adminToken + data.consumeString(4)));
            case 1 -> headers.add(new Header("Authorization", "Basic " + adminToken));
            case 2 -> headers.add(new Header("Authorization", data.consumeString(60)));
            default -> {
            }
        }
        return false;
    }

    private static void addAccept(FuzzedDataProvider data, List<Header> headers) {
        if (data.consumeInt(0, 7) == 0) {
            headers.add(new Header("Accept", data.consumeBoolean() ? data.pickValue(ACCEPTS) : data.consumeString(30)));
        }
    }

    private static void addExtraHeader(FuzzedDataProvider data, List<Header> headers) {
        if (data.consumeInt(0, 7) == 0) {
            headers.add(new Header(data.pickValue(EXTRA_HEADERS), data.consumeString(80)));
        }
    }

    /** A path segment: percent-encoded text, or as it is (then the HTTP client may refuse it: the socket sends it). */
    private static String segment(FuzzedDataProvider data) {
        String text = data.consumeString(140);
        return data.consumeInt(0, 3) > 0 ? URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20") : text;
    }

    private static FuzzedRequest request(String method, String path, List<Header> headers, byte[] body, boolean admin) {
        return new FuzzedRequest(method, path, List.copyOf(headers), body, false, admin);
    }
}
