package io.flashsale.chaos.fuzz;

import io.flashsale.adapter.web.ProblemCode;
import tools.jackson.databind.JsonNode;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What any answer to any input must be: never a 5xx but the documented "not warmed up yet" 503 (no fault is injected
 * here, so the hot store, the database and the broker are all up); every refusal RFC 9457 problem+json whose
 * {@code code} is one the API documents and whose {@code status} is the answer's. Only bytes that are no HTTP request
 * may go unanswered.
 */
final class AnswerRules {

    private static final Set<String> CODES = Arrays.stream(ProblemCode.values()).map(Enum::name)
            .collect(Collectors.toSet());

    private AnswerRules() {
    }

    static void check(FuzzedRequest request, Answer answer) {
        if (answer.status() == 0) {
            // Only the socket path yields no status line: bytes the HTTP client would not send (a path split by
            // CR LF, say), after which Tomcat may close the connection without answering.
            return;
        }
        JsonNode json = answer.json();
        String code = json == null ? null : json.path("code").asString(null);
        if (answer.status() >= 500 && !protocolRefusal(request, answer)) {
            assertThat(answer.status() == 503 && ProblemCode.NOT_READY.name().equals(code))
                    .as("%s was answered %s", request, answer).isTrue();
        }
        if (answer.status() < 400 || request.isHead()) {
            return;
        }
        assertThat(answer.contentType()).as("type of the refusal of %s: %s", request, answer)
                .startsWith("application/problem+json");
        assertThat(code).as("code of the refusal of %s: %s", request, answer).isIn(CODES);
        assertThat(json.path("status").asInt()).as("status in the refusal of %s: %s", request, answer)
                .isEqualTo(answer.status());
    }

    /**
     * The container's answers RFC 9112 asks for: 501 to a transfer coding it does not implement, 505 to an HTTP
     * version it does not speak (bytes on the socket can name any). Still problem+json with a code, checked below.
     */
    private static boolean protocolRefusal(FuzzedRequest request, Answer answer) {
        boolean transferCoding = request.headers().stream()
                .anyMatch(header -> header.name().strip().equalsIgnoreCase("Transfer-Encoding"));
        return answer.status() == 501 && (transferCoding || answer.bare()) || answer.status() == 505 && answer.bare();
    }
}
