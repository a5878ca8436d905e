package io.flashsale.chaos.fuzz;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.nio.charset.StandardCharsets;

/**
 * What the service answered: the status, its Content-Type, the body. {@code status} is 0 when the service closed the
 * connection without a status line; {@code bare} when the request went as bytes over a socket of its own.
 */
record Answer(int status, String contentType, byte[] body, boolean bare) {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    static Answer none() {
        return new Answer(0, "", new byte[0], true);
    }

    String text() {
        return new String(body, StandardCharsets.UTF_8);
    }

    /** The body as JSON, or null when it is not JSON. */
    JsonNode json() {
        if (body.length == 0) {
            return null;
        }
        try {
            return JSON.readTree(body);
        } catch (JacksonException notJson) {
            return null;
        }
    }

    @Override
    public String toString() {
        String text = text();
        return status + " " + contentType + " " + (text.length() > 600 ? text.substring(0, 600) + "..." : text);
    }
}
