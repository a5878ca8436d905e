package io.flashsale.chaos.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One HTTP request made from fuzzer bytes: mostly well-formed reservations with odd values (so the inputs reach past
 * the JSON parser into validation and the reserve path), some raw bodies, some other endpoints.
 */
record FuzzedRequest(String method, String path, String body, String contentType, String buyer,
                     String idempotencyKey, boolean asAdmin, boolean reservesStock) {

    private static final List<String> METHODS = List.of("POST", "POST", "POST", "GET", "PUT", "DELETE", "PATCH");
    private static final List<String> CONTENT_TYPES = List.of("application/json", "application/json",
            "application/json; charset=utf-8", "text/plain", "application/xml", "application/problem+json", "");

    static FuzzedRequest from(FuzzedDataProvider data, String saleId, List<String> skus) {
        int shape = data.consumeInt(0, 9);
        String method = data.pickValue(METHODS);
        String contentType = data.pickValue(CONTENT_TYPES);
        String buyer = data.consumeBoolean() ? "fz" + data.consumeInt(0, 50) : nullable(data.consumeString(70));
        String key = data.consumeBoolean() ? data.consumeString(80) : null;
        boolean admin = data.consumeInt(0, 9) == 0;
        String reservations = "/api/v1/activities/" + saleId + "/reservations";
        return switch (shape) {
            case 0, 1, 2, 3, 4 -> new FuzzedRequest("POST", reservations, reservationBody(data, skus),
                    "application/json", buyer, key, false, true);
            case 5 -> new FuzzedRequest(method, reservations, data.consumeRemainingAsString(), contentType, buyer, key,
                    admin, true);
            case 6 -> new FuzzedRequest(method, "/api/v1/reservations/" + segment(data) + "/"
                    + data.pickValue(List.of("payment", "cancellation", "", "x")), null, null, buyer, key, admin, false);
            case 7 -> new FuzzedRequest(method, "/api/v1/activities/" + segment(data), data.consumeRemainingAsString(),
                    contentType, buyer, key, admin, false);
            case 8 -> new FuzzedRequest("POST", "/api/v1/activities", data.consumeRemainingAsString(), contentType,
                    buyer, key, admin, false);
            default -> new FuzzedRequest(method, "/api/v1/activities/" + saleId + "/"
                    + data.pickValue(List.of("stock", "reconciliation", "stock-adjustments", "warm-up", "archive")),
                    data.consumeRemainingAsString(), contentType, buyer, key, admin, false);
        };
    }

    /** JSON that is often valid: a request id and lines whose values the fuzzer picks, sometimes nested deep. */
    private static String reservationBody(FuzzedDataProvider data, List<String> skus) {
        StringBuilder body = new StringBuilder("{");
        if (data.consumeBoolean()) {
            body.append("\"requestId\":").append(jsonString(data.consumeString(70))).append(',');
        }
        body.append("\"items\":[");
        int lines = data.consumeInt(0, 4);
        for (int i = 0; i < lines; i++) {
            if (i > 0) {
                body.append(',');
            }
            String sku = data.consumeBoolean() ? data.pickValue(skus) : data.consumeString(70);
            body.append("{\"skuId\":").append(jsonString(sku)).append(",\"quantity\":").append(number(data));
            if (data.consumeInt(0, 7) == 0) {
                body.append(",\"").append(data.consumeString(10).replace("\"", "")).append("\":")
                        .append("[".repeat(data.consumeInt(0, 300))).append("]".repeat(data.consumeInt(0, 300)));
            }
            body.append('}');
        }
        body.append("]}");
        return body.toString();
    }

    private static String number(FuzzedDataProvider data) {
        return switch (data.consumeInt(0, 5)) {
            case 0 -> Long.toString(data.consumeLong());
            case 1 -> Double.toString(data.consumeDouble());
            case 2 -> "\"" + data.consumeInt() + "\"";
            case 3 -> "1e" + data.consumeInt(0, 400);
            default -> Integer.toString(data.consumeInt(-2, 5));
        };
    }

    private static String segment(FuzzedDataProvider data) {
        return URLEncoder.encode(data.consumeString(140), StandardCharsets.UTF_8);
    }

    private static String nullable(String text) {
        return text.isEmpty() ? null : text;
    }

    private static String jsonString(String text) {
        StringBuilder quoted = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        quoted.append(String.format("\\u%04x", (int) c));
                    } else {
                        quoted.append(c);
                    }
                }
            }
        }
        return quoted.append('"').toString();
    }
}
