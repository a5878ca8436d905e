package io.flashsale.bootstrap.api;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.net.http.HttpRequest;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class ActivityApiIT extends ApiTestBase {

    @Test
    void givenAnAdmin_whenASaleIsCreated_then201WithItsLocationAndDefaults() {
        String id = newId();
        Instant startsAt = now().plusSeconds(60);
        Instant endsAt = startsAt.plusSeconds(3600);

        Reply created = createActivity(activityJson(id, startsAt, endsAt, null,
                item("sku-a", 10), "{\"skuId\":\"sku-b\",\"stock\":5,\"perUserLimit\":3,\"segments\":4}"));

        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(created.header("Location")).isEqualTo("/api/v1/activities/" + id);
        JsonNode body = created.json();
        assertThat(body.path("id").asString()).isEqualTo(id);
        assertThat(body.path("name").asString()).isEqualTo("Sale " + id);
        assertThat(Instant.parse(body.path("startsAt").asString())).isEqualTo(startsAt);
        assertThat(Instant.parse(body.path("endsAt").asString())).isEqualTo(endsAt);
        assertThat(body.path("perUserLimit").asInt()).isEqualTo(1);
        assertThat(body.path("paymentTimeoutSeconds").asLong()).isEqualTo(900);
        assertThat(body.path("warmedUp").asBoolean()).isFalse();
        JsonNode first = body.path("items").get(0);
        assertThat(first.path("skuId").asString()).isEqualTo("sku-a");
        assertThat(first.path("stock").asLong()).isEqualTo(10);
        assertThat(first.path("perUserLimit").asInt()).isEqualTo(1);
        assertThat(first.path("segments").asInt()).isEqualTo(1);
        assertThat(first.has("available")).isFalse();
        JsonNode second = body.path("items").get(1);
        assertThat(second.path("perUserLimit").asInt()).isEqualTo(3);
        assertThat(second.path("segments").asInt()).isEqualTo(4);
    }

    @Test
    void givenNoId_whenASaleIsCreated_thenTheServiceNamesIt() {
        Reply created = createActivity(activityJson(null, now(), now().plusSeconds(60), 2, item("sku-a", 1)));

        assertThat(created.status()).as(created.body()).isEqualTo(201);
        String id = created.json().path("id").asString();
        assertThat(id).matches("[0-9a-f]{32}");
        assertThat(created.header("Location")).isEqualTo("/api/v1/activities/" + id);
        assertThat(get("/api/v1/activities/" + id).status()).isEqualTo(200);
    }

    @Test
    void givenAPaymentTimeout_whenASaleIsCreated_thenItIsKept() {
        String body = "{\"name\":\"Sale\",\"startsAt\":\"" + now() + "\",\"endsAt\":\"" + now().plusSeconds(60)
                + "\",\"paymentTimeoutSeconds\":120,\"items\":[" + item("sku-a", 1) + "]}";

        Reply created = createActivity(body);

        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(created.json().path("paymentTimeoutSeconds").asLong()).isEqualTo(120);
    }

    @Test
    void givenPaymentTimeoutsAtTheBounds_whenSalesAreCreated_thenOneSecondAndAYearAreKeptAndMoreIsRefusedSayingTheLimit() {
        for (long seconds : new long[] {1, 31_536_000}) {
            Reply created = createActivity(withPaymentTimeout(seconds));

            assertThat(created.status()).as(created.body()).isEqualTo(201);
            assertThat(get("/api/v1/activities/" + created.json().path("id").asString()).json()
                    .path("paymentTimeoutSeconds").asLong()).isEqualTo(seconds);
        }

        Reply refused = createActivity(withPaymentTimeout(31_536_001));

        assertProblem(refused, 400, "VALIDATION");
        assertThat(refused.json().path("errors").get(0).path("field").asString()).isEqualTo("paymentTimeoutSeconds");
        assertThat(refused.json().path("errors").get(0).path("message").asString()).contains("1").contains("31536000");
    }

    private static String withPaymentTimeout(long seconds) {
        return "{\"name\":\"Sale\",\"startsAt\":\"" + now() + "\",\"endsAt\":\"" + now().plusSeconds(60)
                + "\",\"paymentTimeoutSeconds\":" + seconds + ",\"items\":[" + item("sku-a", 1) + "]}";
    }

    @Test
    void givenATakenId_whenASaleIsCreatedAgain_then409ActivityExists() {
        String id = createOpenActivity(1, item("sku-a", 10));

        Reply again = createActivity(activityJson(id, now(), now().plusSeconds(60), 1, item("sku-z", 1)));

        assertProblem(again, 409, "ACTIVITY_EXISTS");
        assertThat(get("/api/v1/activities/" + id).json().path("items").get(0).path("skuId").asString())
                .isEqualTo("sku-a");
    }

    @Test
    void givenNoOrAWrongToken_whenAnAdminCallIsMade_then401UnauthorizedAndNothingHappens() {
        String id = createOpenActivity(1, item("sku-a", 10));
        String body = activityJson(newId(), now(), now().plusSeconds(60), 1, item("sku-a", 1));
        String[][] credentials = {{}, {"Authorization", "Bearer wrong"}, {"Authorization", "Bearer " + ADMIN_TOKEN + "x"},
                {"Authorization", "Basic YWRtaW46YWRtaW4="}, {"Authorization", ADMIN_TOKEN}};

        for (String[] headers : credentials) {
            Reply create = post("/api/v1/activities", body, headers);
            Reply warmUp = send(request("/api/v1/activities/" + id + "/warm-up", headers)
                    .POST(HttpRequest.BodyPublishers.noBody()));
            Reply stock = get("/api/v1/activities/" + id + "/stock", headers);

            for (Reply refused : new Reply[] {create, warmUp, stock}) {
                assertProblem(refused, 401, "UNAUTHORIZED");
                assertThat(refused.header("WWW-Authenticate")).isEqualTo("Bearer");
            }
        }
        assertThat(get("/api/v1/activities/" + id).json().path("warmedUp").asBoolean()).isFalse();
    }

    @Test
    void givenAnUnknownOrMalformedId_whenAnActivityIsRead_then404ActivityNotFound() {
        assertProblem(get("/api/v1/activities/" + newId()), 404, "ACTIVITY_NOT_FOUND");
        assertProblem(get("/api/v1/activities/" + "x".repeat(65)), 404, "ACTIVITY_NOT_FOUND");
        assertProblem(get("/api/v1/activities/sku%E2%9C%93"), 404, "ACTIVITY_NOT_FOUND");
        assertProblem(get("/api/v1/activities/x'%20OR%20'1'='1"), 404, "ACTIVITY_NOT_FOUND");
        assertProblem(asAdmin("POST", "/api/v1/activities/" + newId() + "/warm-up", null), 404, "ACTIVITY_NOT_FOUND");
        assertProblem(asAdmin("GET", "/api/v1/activities/" + newId() + "/stock", null), 404, "ACTIVITY_NOT_FOUND");
        assertProblem(asAdmin("GET", "/api/v1/activities/bad%0Aid/stock", null), 404, "ACTIVITY_NOT_FOUND");
    }

    @Test
    void givenASale_whenWarmedUp_then200WithEachSkuAvailableAndTheActivityShowsLiveStock() {
        String id = createOpenActivity(1, item("sku-a", 10), item("sku-b", 3));
        JsonNode before = get("/api/v1/activities/" + id).json();
        assertThat(before.path("warmedUp").asBoolean()).isFalse();
        assertProblem(asAdmin("GET", "/api/v1/activities/" + id + "/stock", null), 503, "NOT_READY");

        Reply warmedUp = asAdmin("POST", "/api/v1/activities/" + id + "/warm-up", null);

        assertThat(warmedUp.status()).as(warmedUp.body()).isEqualTo(200);
        assertThat(warmedUp.json().path("activityId").asString()).isEqualTo(id);
        assertThat(warmedUp.json().path("items").get(0).path("skuId").asString()).isEqualTo("sku-a");
        assertThat(warmedUp.json().path("items").get(0).path("available").asLong()).isEqualTo(10);
        assertThat(warmedUp.json().path("items").get(1).path("available").asLong()).isEqualTo(3);
        JsonNode after = get("/api/v1/activities/" + id).json();
        assertThat(after.path("warmedUp").asBoolean()).isTrue();
        assertThat(after.path("items").get(0).path("available").asLong()).isEqualTo(10);
        assertThat(after.path("items").get(1).path("available").asLong()).isEqualTo(3);
    }

    @Test
    void givenAReservation_whenWarmedUpAgain_thenTheLedgerIsNotReset() {
        String id = openSale(1, item("sku-a", 10));
        assertThat(reserve(id, "alice", lines(null, line("sku-a", 1))).status()).isEqualTo(202);

        Reply again = asAdmin("POST", "/api/v1/activities/" + id + "/warm-up", null);

        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().path("items").get(0).path("available").asLong()).isEqualTo(9);
        assertThat(ledger(id, "sku-a")).containsExactly(9, 1, 0);
    }

    @Test
    void givenAWarmedUpSale_whenTheAdminReadsStock_thenTotalsAsJsonIntegers() {
        String id = openSale(2, item("sku-a", 1_000_000_000), item("sku-b", 0));
        reserve(id, "alice", lines(null, line("sku-a", 2)));

        JsonNode stock = stock(id);

        assertThat(stock.path("activityId").asString()).isEqualTo(id);
        JsonNode a = stock.path("items").get(0);
        assertThat(a.path("skuId").asString()).isEqualTo("sku-a");
        for (String field : new String[] {"total", "available", "reserved", "sold"}) {
            assertThat(a.path(field).isIntegralNumber()).as(field).isTrue();
        }
        assertThat(a.path("total").asLong()).isEqualTo(1_000_000_000);
        assertThat(a.path("available").asLong()).isEqualTo(999_999_998);
        assertThat(a.path("reserved").asLong()).isEqualTo(2);
        assertThat(a.path("sold").asLong()).isZero();
        assertThat(stock.path("items").get(1).path("available").asLong()).isZero();
    }

    @Test
    void givenAnInvalidSale_whenCreated_then400ValidationNamingTheFieldAndNothingIsStored() {
        Instant start = now().plusSeconds(60);
        Instant end = start.plusSeconds(60);
        assertRefused("endsAt", activityJson(newId(), start, start, 1, item("a", 1)));
        assertRefused("endsAt", activityJson(newId(), end, start, 1, item("a", 1)));
        assertRefused("items", activityJson(newId(), start, end, 1, item("a", 1), item("a", 2)));
        assertRefused("items", activityJson(newId(), start, end, 1));
        assertRefused("items[0].stock", activityJson(newId(), start, end, 1, item("a", -1)));
        assertRefused("items[0].stock", activityJson(newId(), start, end, 1, item("a", 1_000_000_001)));
        assertRefused("perUserLimit", activityJson(newId(), start, end, 0, item("a", 1)));
        assertRefused("perUserLimit", activityJson(newId(), start, end, 1001, item("a", 1)));
        assertRefused("items[0].perUserLimit", activityJson(newId(), start, end, 1,
                "{\"skuId\":\"a\",\"stock\":1,\"perUserLimit\":0}"));
        assertRefused("items[0].segments", activityJson(newId(), start, end, 1,
                "{\"skuId\":\"a\",\"stock\":1,\"segments\":17}"));
        assertRefused("items[0].segments", activityJson(newId(), start, end, 1,
                "{\"skuId\":\"a\",\"stock\":1,\"segments\":0}"));
        assertRefused("items[0].skuId", activityJson(newId(), start, end, 1, item("a b", 1)));
        assertRefused("items[0].unknown", activityJson(newId(), start, end, 1,
                "{\"skuId\":\"a\",\"stock\":1,\"unknown\":1}"));
        String[] fiftyOne = new String[51];
        for (int i = 0; i < fiftyOne.length; i++) {
            fiftyOne[i] = item("sku-" + i, 1);
        }
        assertRefused("items", activityJson(newId(), start, end, 1, fiftyOne));
        String id = newId();
        assertRefused("colour", activityJson(id, start, end, 1, item("a", 1)).replace("{\"id\"", "{\"colour\":\"red\",\"id\""));
        assertRefused("name", "{\"id\":\"" + newId() + "\",\"name\":\"  \",\"startsAt\":\"" + start + "\",\"endsAt\":\""
                + end + "\",\"items\":[" + item("a", 1) + "]}");
        assertRefused("name", "{\"id\":\"" + newId() + "\",\"name\":\"bad\\u0000name\",\"startsAt\":\"" + start
                + "\",\"endsAt\":\"" + end + "\",\"items\":[" + item("a", 1) + "]}");
        assertRefused("startsAt", "{\"id\":\"" + newId() + "\",\"name\":\"n\",\"endsAt\":\"" + end + "\",\"items\":["
                + item("a", 1) + "]}");
        assertRefused("paymentTimeoutSeconds", "{\"id\":\"" + newId() + "\",\"name\":\"n\",\"startsAt\":\"" + start
                + "\",\"endsAt\":\"" + end + "\",\"paymentTimeoutSeconds\":0,\"items\":[" + item("a", 1) + "]}");
        assertRefused("id", activityJson("x' OR '1'='1", start, end, 1, item("a", 1)));
        assertRefused("id", activityJson("sale-\u2713", start, end, 1, item("a", 1)));
        assertProblem(get("/api/v1/activities/" + id), 404, "ACTIVITY_NOT_FOUND");
    }

    private void assertRefused(String field, String body) {
        Reply refused = createActivity(body);
        assertProblem(refused, 400, "VALIDATION");
        assertThat(refused.json().path("errors"))
                .as(body)
                .anySatisfy(error -> assertThat(error.path("field").asString()).isEqualTo(field));
        JsonNode json = JsonMapper.builder().build().readTree(body);
        if (json.path("id").isString() && json.path("id").asString().matches("[A-Za-z0-9_-]{1,64}")) {
            assertProblem(get("/api/v1/activities/" + json.path("id").asString()), 404, "ACTIVITY_NOT_FOUND");
        }
    }
}
