package io.flashsale.bootstrap.api;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The API description as the running service serves it. Each run writes it to {@code docs/openapi.json} and fails
 * when the committed copy differed: the next run passes, and the diff shows what to commit with the change.
 */
class OpenApiSpecIT extends ApiTestBase {

    static final Path COMMITTED = Path.of(System.getProperty("basedir", ".")).resolve("../docs/openapi.json").normalize();
    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS).build();
    /** ApiTestBase's own controller for 500s: a test fixture, not part of the API. */
    private static final String TEST_ONLY = "/api/v1/test-only/";

    @Test
    void whenTheServiceDescribesItsApi_thenTheCommittedDocsOpenApiJsonIsTheSame() throws IOException {
        Reply docs = get("/v3/api-docs");
        assertThat(docs.status()).as(docs.body()).isEqualTo(200);
        ObjectNode spec = (ObjectNode) JSON.readTree(docs.body());
        ObjectNode paths = (ObjectNode) spec.get("paths");
        List<String> fixtures = new ArrayList<>();
        paths.propertyNames().forEach(path -> {
            if (path.startsWith(TEST_ONLY)) {
                fixtures.add(path);
            }
        });
        fixtures.forEach(paths::remove);
        String served = JSON.writeValueAsString(JSON.treeToValue(spec, Object.class)) + "\n";

        String committed = Files.exists(COMMITTED) ? Files.readString(COMMITTED, StandardCharsets.UTF_8) : "";
        Files.writeString(COMMITTED, served, StandardCharsets.UTF_8);
        assertThat(committed).as("docs/openapi.json was out of date and has been rewritten; commit it").isEqualTo(served);
    }

    @Test
    void whenTheApiIsDescribed_thenItIsOpenApi31AndEveryOperationListsItsProblemCodes() {
        JsonNode spec = get("/v3/api-docs").json();

        assertThat(spec.path("openapi").asString()).startsWith("3.1");
        JsonNode reserve = spec.path("paths").path("/api/v1/activities/{activityId}/reservations").path("post");
        assertThat(codes(reserve, "409")).contains("SOLD_OUT", "INSUFFICIENT_STOCK", "LIMIT_EXCEEDED", "NOT_STARTED", "ENDED");
        assertThat(codes(reserve, "401")).containsExactly("MISSING_USER", "TOKEN_MISSING", "TOKEN_INVALID",
                "TOKEN_EXPIRED", "GATEWAY_SECRET_INVALID");
        assertThat(reserve.path("security").get(0).has("buyer")).isTrue();
        assertThat(codes(reserve, "503")).containsExactly("NOT_READY", "TRY_AGAIN", "UNAVAILABLE", "DEGRADED", "BUSY");
        assertThat(reserve.path("responses").path("409").path("content").has("application/problem+json")).isTrue();
        assertThat(reserve.path("responses").has("202")).isTrue();
        assertThat(reserve.path("responses").has("200")).isFalse();
        assertThat(reserve.path("parameters").findValuesAsString("name")).contains("X-User-Id", "Idempotency-Key");
        JsonNode create = spec.path("paths").path("/api/v1/activities").path("post");
        assertThat(codes(create, "401")).containsExactly("UNAUTHORIZED");
        assertThat(create.path("security").get(0).has("admin")).isTrue();
        spec.path("paths").properties().forEach(path -> path.getValue().properties().forEach(operation ->
                assertThat(codes(operation.getValue(), "500")).as(operation.getKey() + " " + path.getKey())
                        .containsExactly("INTERNAL")));
        spec.path("paths").properties().forEach(path -> path.getValue().properties().forEach(operation ->
                assertThat(codes(operation.getValue(), "503")).as(operation.getKey() + " " + path.getKey())
                        .contains("UNAVAILABLE")));
    }

    @Test
    void whenSwaggerUiIsOpened_thenItIsServed() {
        Reply redirect = get("/swagger-ui.html");
        assertThat(redirect.status()).isEqualTo(302);
        String location = redirect.headers().firstValue("Location").orElseThrow();

        Reply page = get(location.replaceFirst("^https?://[^/]+", ""));

        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("swagger-ui");
    }

    private static List<String> codes(JsonNode operation, String status) {
        List<String> codes = new ArrayList<>();
        operation.path("responses").path(status).path("x-problem-codes").forEach(code -> codes.add(code.asString()));
        return codes;
    }
}
