package io.flashsale.bootstrap.api;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Whatever a caller sends, the answer is a documented 4xx problem and the stock stays exactly as it was. */
class BadInputIT extends ApiTestBase {

    private static final String LUA_BREAKOUT = "\\\"]]..redis.call('FLUSHALL')..[[\\\"";
    private static final String SQL_INJECTION = "x' OR '1'='1";

    private String activityId;

    @BeforeEach
    void openSale() {
        activityId = openSale(5, item("sku-a", 10), item("sku-b", 10));
    }

    @Test
    void givenMalformedJson_whenReserved_then400Validation() {
        for (String body : new String[] {"{\"items\":[", "not json", "", "[]", "null", "{'items':[]}", "\"items\"",
                "{\"items\":[" + line("sku-a", 1) + "]} trailing", "{\"items\":[" + line("sku-a", 1) + "]}{}",
                "{\"items\":[" + line("sku-a", 1) + "],}"}) {
            assertRefusedUntouched(400, "VALIDATION", body);
        }
    }

    @Test
    void givenWrongTypes_whenReserved_then400ValidationNamingTheField() {
        assertField("items[0].quantity", "{\"items\":[{\"skuId\":\"sku-a\",\"quantity\":\"1\"}]}");
        assertField("items[0].quantity", "{\"items\":[{\"skuId\":\"sku-a\",\"quantity\":1.5}]}");
        assertField("items[0].quantity", "{\"items\":[{\"skuId\":\"sku-a\",\"quantity\":1.0}]}");
        assertField("items[0].quantity", "{\"items\":[{\"skuId\":\"sku-a\",\"quantity\":true}]}");
        assertField("items[0].quantity", "{\"items\":[{\"skuId\":\"sku-a\",\"quantity\":null}]}");
        assertField("items[0].quantity", "{\"items\":[{\"skuId\":\"sku-a\",\"quantity\":[1]}]}");
        assertField("items[0].quantity", "{\"items\":[{\"skuId\":\"sku-a\",\"quantity\":{}}]}");
        assertField("items[0].quantity", "{\"items\":[{\"skuId\":\"sku-a\"}]}");
        assertField("items[0].skuId", "{\"items\":[{\"skuId\":7,\"quantity\":1}]}");
        assertField("items[0].skuId", "{\"items\":[{\"skuId\":true,\"quantity\":1}]}");
        assertField("items[0].skuId", "{\"items\":[{\"skuId\":null,\"quantity\":1}]}");
        assertField("items[0].skuId", "{\"items\":[{\"skuId\":[\"sku-a\"],\"quantity\":1}]}");
        assertField("requestId", "{\"requestId\":5,\"items\":[" + line("sku-a", 1) + "]}");
        assertField("requestId", "{\"requestId\":{},\"items\":[" + line("sku-a", 1) + "]}");
        assertField("items", "{\"items\":{\"skuId\":\"sku-a\",\"quantity\":1}}");
        assertField("items", "{\"items\":\"sku-a\"}");
        assertField("items", "{\"items\":null}");
        assertField("items", "{}");
        assertField("items[0]", "{\"items\":[null]}");
        assertField("items[0]", "{\"items\":[1]}");
        assertField("items[1]", "{\"items\":[" + line("sku-a", 1) + ",null]}");
    }

    @Test
    void givenQuantitiesOutOfRange_whenReserved_then400Validation() {
        for (String quantity : new String[] {"0", "-1", "1001", "2147483647", "2147483648", "-2147483649",
                "99999999999999999999", "1e3", "-0.0", "NaN"}) {
            String body = "{\"items\":[{\"skuId\":\"sku-a\",\"quantity\":" + quantity + "}]}";
            List<String> fields = fieldsOf(assertRefusedUntouched(400, "VALIDATION", body));
            if (!quantity.equals("NaN")) {
                assertThat(fields).as(quantity).contains("items[0].quantity");
            }
        }
    }

    @Test
    void givenUnicodeOrControlCharactersInIds_whenReserved_then400Validation() {
        for (String id : new String[] {"sku-\u2713", "sku\\u0000", "sku\\n1", "sku\\t1", "\uff53\uff4b\uff55",
                "\u202esku", "sku-\uD83D\uDE00", "", " ", "sku a", "sku.a", "a".repeat(65)}) {
            assertField("items[0].skuId", "{\"items\":[{\"skuId\":\"" + id + "\",\"quantity\":1}]}");
            assertField("requestId", "{\"requestId\":\"" + id + "\",\"items\":[" + line("sku-a", 1) + "]}");
        }
    }

    @Test
    void givenLuaOrSqlFragmentsInIds_whenReserved_then400ValidationAndRedisUntouched() {
        for (String id : new String[] {SQL_INJECTION, LUA_BREAKOUT, "sku-a\\\"}", "sku-a');DROP TABLE activity;--",
                "*", "fs:{" + activityId + "}:stock"}) {
            assertField("items[0].skuId", "{\"items\":[{\"skuId\":\"" + id + "\",\"quantity\":1}]}");
            assertField("requestId", "{\"requestId\":\"" + id + "\",\"items\":[" + line("sku-a", 1) + "]}");
        }
    }

    @Test
    void givenBadIdempotencyKeys_whenReserved_then400ValidationNamingTheHeader() {
        for (String key : new String[] {SQL_INJECTION, "]]..redis.call('FLUSHALL')..[[", "k".repeat(65), "key 1",
                "key\u00e9"}) {
            Reply refused = reserve(activityId, "alice", lines(null, line("sku-a", 1)), "Idempotency-Key", key);
            assertProblem(refused, 400, "VALIDATION");
            assertThat(fieldsOf(refused)).as(key).contains("Idempotency-Key");
            assertUntouched();
        }
    }

    @Test
    void givenLuaOrSqlFragmentsInTheActivityPath_whenReserved_then404AndNothingChanges() {
        for (String path : new String[] {"x'%20OR%20'1'='1", "%22%5D%5D..redis.call('FLUSHALL')..%5B%5B%22",
                activityId + "%0A", activityId + "%E2%9C%93", "*"}) {
            assertProblem(reserve(path, "alice", lines(null, line("sku-a", 1))), 404, "ACTIVITY_NOT_FOUND");
            assertUntouched();
        }
    }

    @Test
    void givenUnknownFields_whenReserved_then400ValidationNamingThem() {
        assertField("price", "{\"price\":1,\"items\":[" + line("sku-a", 1) + "]}");
        assertField("items[0].discount", "{\"items\":[{\"skuId\":\"sku-a\",\"quantity\":1,\"discount\":50}]}");
        assertField("buyerId", "{\"buyerId\":\"bob\",\"items\":[" + line("sku-a", 1) + "]}");
    }

    @Test
    void givenTheSameSkuTwiceOrTheSameFieldTwice_whenReserved_then400Validation() {
        assertField("items", lines(null, line("sku-a", 1), line("sku-a", 1)));
        assertRefusedUntouched(400, "VALIDATION", "{\"items\":[" + line("sku-a", 1) + "],\"items\":[" + line("sku-a", 5) + "]}");
        assertRefusedUntouched(400, "VALIDATION", "{\"items\":[{\"skuId\":\"sku-a\",\"quantity\":1,\"quantity\":5}]}");
    }

    @Test
    void givenNoLinesOrFiftyOneLines_whenReserved_then400Validation() {
        assertField("items", lines(null));
        List<String> fiftyOne = new ArrayList<>();
        for (int i = 0; i < 51; i++) {
            fiftyOne.add(line("sku-" + i, 1));
        }
        assertField("items", lines(null, fiftyOne.toArray(String[]::new)));
    }

    @Test
    void givenATenMegabyteBody_whenReserved_then413QuicklyAndNothingChanges() {
        byte[] tenMegabytes = tenMegabyteBody();
        long started = System.nanoTime();

        Reply refused = send(request("/api/v1/activities/" + activityId + "/reservations", buyerHeader(),
                signedIn("alice"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(tenMegabytes)));

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        assertProblem(refused, 413, "PAYLOAD_TOO_LARGE");
        assertUntouched();
    }

    @Test
    void givenATenMegabyteBodyOfUnknownLength_whenReserved_then413AndNothingChanges() {
        byte[] tenMegabytes = tenMegabyteBody();

        Reply refused = send(request("/api/v1/activities/" + activityId + "/reservations", buyerHeader(),
                signedIn("alice"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(tenMegabytes))));

        assertProblem(refused, 413, "PAYLOAD_TOO_LARGE");
        assertUntouched();
    }

    @Test
    void givenATenMegabyteSale_whenCreated_then413() {
        byte[] tenMegabytes = tenMegabyteBody();

        Reply refused = send(request("/api/v1/activities", "Authorization", "Bearer " + ADMIN_TOKEN)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(tenMegabytes)));

        assertProblem(refused, 413, "PAYLOAD_TOO_LARGE");
    }

    /** A well-formed reservation padded with a ten megabyte requestId. */
    private static byte[] tenMegabyteBody() {
        return ("{\"requestId\":\"" + "a".repeat(10 * 1024 * 1024) + "\",\"items\":[" + line("sku-a", 1) + "]}").getBytes();
    }

    private void assertField(String field, String body) {
        Reply refused = assertRefusedUntouched(400, "VALIDATION", body);
        assertThat(fieldsOf(refused)).as(body).contains(field);
    }

    private Reply assertRefusedUntouched(int status, String code, String body) {
        Reply refused = reserve(activityId, "alice", body);
        assertThat(refused.status()).as(body + " -> " + refused.body()).isEqualTo(status);
        assertProblem(refused, status, code);
        assertThat(refused.body()).doesNotContain("Exception", "tools.jackson", "java.lang");
        assertUntouched();
        return refused;
    }

    private void assertUntouched() {
        assertThat(ledger(activityId, "sku-a")).containsExactly(10, 0, 0);
        assertThat(ledger(activityId, "sku-b")).containsExactly(10, 0, 0);
    }

    private static List<String> fieldsOf(Reply reply) {
        List<String> fields = new ArrayList<>();
        reply.json().path("errors").forEach(error -> fields.add(error.path("field").asString()));
        return fields;
    }
}
