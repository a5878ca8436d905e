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
 */
public record ApiCall(String method, String path, Map<String, String> headers, byte[] body) {

    public ApiCall {
        headers = new LinkedHashMap<>(headers);
    }

    public static ApiCall get(String path) {
        return new ApiCall("GET", path, Map.of(), null);
    }

    public static ApiCall post(String path, String jsonBody) {
        return new ApiCall("POST", path, Map.of("Content-Type", "application/json"),
                jsonBody == null ? null : jsonBody.getBytes(StandardCharsets.UTF_8));
    }

    public static ApiCall patch(String path, String jsonBody) {
        return post(path, jsonBody).withMethod("PATCH");
    }

    private ApiCall withMethod(String newMethod) {
        return new ApiCall(newMethod, path, headers, body);
    }

    public ApiCall withHeader(String name, String value) {
        var copy = new LinkedHashMap<>(headers);
        copy.put(name, value);
        return new ApiCall(method, path, copy, body);
    }

    public ApiCall withoutHeader(String name) {
        return withHeader(name, null);
    }

    public ApiCall withBody(byte[] newBody) {
        return new ApiCall(method, path, headers, newBody);
    }
}
