package io.flashsale.acceptance.api;

import tools.jackson.databind.JsonNode;

import java.net.http.HttpHeaders;
import java.util.Optional;

/** The service's answer to one {@link ApiCall}: status, headers and the body parsed as JSON when it is JSON. */
public record ApiAnswer(ApiCall call, int status, HttpHeaders headers, String body) {

    public JsonNode json() {
        return Json.parse(body);
    }

    /** The stable problem code of a refusal, or "" for an answer that carries none. */
    public String code() {
        return json().path("code").asString("");
    }

    public String text(String field) {
        return json().path(field).asString("");
    }

    public Optional<String> header(String name) {
        return headers.firstValue(name);
    }

    /** Status, code and body, for failure messages that show what the service actually said. */
    public String describe() {
        String shown = body.length() > 500 ? body.substring(0, 500) + "..." : body;
        return call.method() + " " + call.path() + " -> " + status + " " + shown;
    }
}
