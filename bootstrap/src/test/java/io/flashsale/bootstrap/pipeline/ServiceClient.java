package io.flashsale.bootstrap.pipeline;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import static io.flashsale.testsupport.TestBuyerTokens.bearerOf;
import static org.assertj.core.api.Assertions.assertThat;

/** The service's HTTP API in test words, for a service on {@code port} with admin token {@code adminToken}. */
record ServiceClient(int port, String adminToken) {

    static final String SKU = "sku-a";

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    record Reply(int status, String body) {

        JsonNode json() {
            return JSON.readTree(body);
        }
    }

    Reply send(String method, String path, String body, String... headers) {
        try {
            return toReply(HTTP.send(request(method, path, body, headers), HttpResponse.BodyHandlers.ofString()));
        } catch (IOException e) {
            throw new IllegalStateException("request failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    CompletableFuture<Reply> sendAsync(String method, String path, String body, String... headers) {
        return HTTP.sendAsync(request(method, path, body, headers), HttpResponse.BodyHandlers.ofString())
                .thenApply(ServiceClient::toReply);
    }

    Reply asAdmin(String method, String path, String body) {
        return send(method, path, body, "Authorization", "Bearer " + adminToken);
    }

    /** A sale of {@value #SKU} alone, limit 1 per buyer, open now and warmed up; returns its id. */
    String openSale(long units) {
        return openSale(units, null, 1);
    }

    /**
     * As {@link #openSale(long)}, with unpaid orders expiring after {@code paymentTimeoutSeconds} (null: 900) and the
     * SKU's stock split over {@code segments} counters.
     */
    String openSale(long units, Long paymentTimeoutSeconds, int segments) {
        Instant now = Instant.now();
        String id = createSale(now.minusSeconds(60), now.plusSeconds(3600), units, paymentTimeoutSeconds, segments);
        warmUp(id);
        return id;
    }

    String openSale(long units, Long paymentTimeoutSeconds) {
        return openSale(units, paymentTimeoutSeconds, 1);
    }

    /** A sale of {@value #SKU} alone, limit 1 per buyer, not warmed up; returns its id. */
    String createSale(Instant startsAt, Instant endsAt, long units, Long paymentTimeoutSeconds) {
        return createSale(startsAt, endsAt, units, paymentTimeoutSeconds, 1);
    }

    /** As {@link #openSale(long)}, sold in {@code slices} slices (ADR 109). */
    String openSaleInSlices(long units, int slices) {
        Instant now = Instant.now();
        String id = createSale(now.minusSeconds(60), now.plusSeconds(3600), units, null, 1, slices);
        warmUp(id);
        return id;
    }

    String createSale(Instant startsAt, Instant endsAt, long units, Long paymentTimeoutSeconds, int segments) {
        return createSale(startsAt, endsAt, units, paymentTimeoutSeconds, segments, 1);
    }

    private String createSale(Instant startsAt, Instant endsAt, long units, Long paymentTimeoutSeconds, int segments,
                              int slices) {
        String id = "it-" + UUID.randomUUID().toString().replace("-", "");
        String body = "{\"id\":\"" + id + "\",\"name\":\"Pipeline sale\",\"startsAt\":\"" + startsAt
                + "\",\"endsAt\":\"" + endsAt + "\",\"perUserLimit\":1,"
                + (slices == 1 ? "" : "\"slices\":" + slices + ",")
                + (paymentTimeoutSeconds == null ? "" : "\"paymentTimeoutSeconds\":" + paymentTimeoutSeconds + ",")
                + "\"items\":[{\"skuId\":\"" + SKU + "\",\"stock\":" + units + ",\"segments\":" + segments + "}]}";
        Reply created = asAdmin("POST", "/api/v1/activities", body);
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return id;
    }

    void warmUp(String activityId) {
        Reply warmedUp = asAdmin("POST", "/api/v1/activities/" + activityId + "/warm-up", null);
        assertThat(warmedUp.status()).as(warmedUp.body()).isEqualTo(200);
    }

    CompletableFuture<Reply> payAsync(String reservationId, String buyer) {
        return sendAsync("POST", "/api/v1/reservations/" + reservationId + "/payment", null, "Authorization",
                bearerOf(buyer));
    }

    CompletableFuture<Reply> cancelAsync(String reservationId, String buyer) {
        return sendAsync("POST", "/api/v1/reservations/" + reservationId + "/cancellation", null, "Authorization",
                bearerOf(buyer));
    }

    Reply pay(String reservationId, String buyer) {
        return payAsync(reservationId, buyer).join();
    }

    Reply cancel(String reservationId, String buyer) {
        return cancelAsync(reservationId, buyer).join();
    }

    /** One unit of {@value #SKU}. */
    CompletableFuture<Reply> reserveAsync(String activityId, String buyer) {
        return sendAsync("POST", "/api/v1/activities/" + activityId + "/reservations",
                "{\"items\":[{\"skuId\":\"" + SKU + "\",\"quantity\":1}]}", "Authorization", bearerOf(buyer));
    }

    JsonNode reservation(String reservationId, String buyer) {
        Reply read = send("GET", "/api/v1/reservations/" + reservationId, null, "Authorization", bearerOf(buyer));
        assertThat(read.status()).as(read.body()).isEqualTo(200);
        return read.json();
    }

    private HttpRequest request(String method, String path, String body, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return request.build();
    }

    private static Reply toReply(HttpResponse<String> response) {
        return new Reply(response.statusCode(), response.body());
    }
}
