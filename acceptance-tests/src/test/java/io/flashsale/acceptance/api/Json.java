package io.flashsale.acceptance.api;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.MissingNode;

final class Json {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private Json() {
    }

    static String write(Object value) {
        return MAPPER.writeValueAsString(value);
    }

    /** A body that is not JSON (an HTML error page, say) reads as a missing node, so assertions report it plainly. */
    static JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            return MissingNode.getInstance();
        }
        try {
            return MAPPER.readTree(body);
        } catch (JacksonException notJson) {
            return MissingNode.getInstance();
        }
    }
}
