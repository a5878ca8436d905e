package io.flashsale.chaos.history;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static io.flashsale.testsupport.TestBuyerTokens.bearerOf;

/**
 * The buyers' and the admin's HTTP client. Every call is recorded in the history before its result is used; a call
 * that gets no answer within {@link #ANSWER_TIMEOUT} is recorded as unknown.
 */
public final class Client {

    public static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(3);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(1))
            .build();

    private final History history;
    private final String adminToken;

    public Client(History history, String adminToken) {
        this.history = history;
        this.adminToken = adminToken;
    }

    /** What a call's caller needs back; the full record is in the history. */
    public record Answer(int status, String code, JsonNode json) {

        public boolean unknown() {
            return status < 0;
        }
    }

    public Answer send(String kind, int instance, int port, String method, String path, String buyer, String body,
                       String requestId, String reservationId, boolean admin) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(ANSWER_TIMEOUT)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (buyer != null) {
            // A signed-in buyer: a token of the tests' issuer, whose key the campaign's instances are given.
            request.header("Authorization", bearerOf(buyer));
        }
        if (admin) {
            request.header("Authorization", "Bearer " + adminToken);
        }
        long id = history.nextId();
        long sent = history.nowMillis();
        int status = -1;
        String text = null;
        try {
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            status = response.statusCode();
            text = response.body();
        } catch (IOException noAnswer) {
            text = noAnswer.getClass().getSimpleName() + ": " + noAnswer.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            text = "interrupted";
        }
        long answered = status < 0 ? -1 : history.nowMillis();
        JsonNode json = status < 0 ? null : parse(text);
        String code = json == null ? null : textOrNull(json.path("code"));
        String resolvedReservation = reservationId != null ? reservationId
                : json == null ? null : textOrNull(json.path("reservationId"));
        history.add(new Entry(id, kind, instance, buyer, requestId, resolvedReservation, body, sent, answered, status,
                code, text));
        return new Answer(status, code, json);
    }

    private static JsonNode parse(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return JSON.readTree(text);
        } catch (RuntimeException notJson) {
            return null;
        }
    }

    private static String textOrNull(JsonNode node) {
        return node == null || node.isMissingNode() || node.isNull() ? null : node.asString();
    }

    public static String json(Object value) {
        return JSON.writeValueAsString(value);
    }
}
