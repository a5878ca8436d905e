package io.flashsale.acceptance.api;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One HTTP request to the service, described before it is sent so that it can be sent again, sent by
 * a crowd, or bent out of shape by a bad-input example.
 *
 * @param path    the path under the service's root, e.g. {@code /api/v1/activities}
 * @param headers header values; a null value means "leave this header out"
 * @param body    raw bytes, null for no body
 * @param buyer   the buyer the call is signed in as, null for none: what the scenarios count answers by
 */
public record ApiCall(String method, String path, Map<String, String> headers, byte[] body, String buyer) {

    public ApiCall {
        headers = new LinkedHashMap<>(headers);
    }

    public static ApiCall get(String path) {
        return new ApiCall("GET", path, Map.of(), null, null);
    }

    public static ApiCall post(String path, String jsonBody) {
        return new ApiCall("POST", path, Map.of("Content-Type", "application/json"),
                jsonBody == null ? null : jsonBody.getBytes(StandardCharsets.UTF_8), null);
    }

    public static ApiCall patch(String path, String jsonBody) {
        return post(path, jsonBody).withMethod("PATCH");
    }

    private ApiCall withMethod(String newMethod) {
        return new ApiCall(newMethod, path, headers, body, buyer);
    }

    public ApiCall withHeader(String name, String value) {
        var copy = new LinkedHashMap<>(headers);
        copy.put(name, value);
        return new ApiCall(method, path, copy, body, buyer);
    }

    public ApiCall withoutHeader(String name) {
        return withHeader(name, null);
    }

    public ApiCall withBody(byte[] newBody) {
        return new ApiCall(method, path, headers, newBody, buyer);
    }

    /** The call as {@code signedInBuyer} makes it, carrying {@code credential} in {@code header}. */
    public ApiCall signedInAs(String signedInBuyer, String header, String credential) {
        return new ApiCall(method, path, withHeader(header, credential).headers(), body, signedInBuyer);
    }
}
