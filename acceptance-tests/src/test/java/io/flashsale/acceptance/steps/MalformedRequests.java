package io.flashsale.acceptance.steps;

import io.flashsale.testsupport.TestBuyerTokens;
import io.flashsale.acceptance.api.ApiCall;
import io.flashsale.acceptance.api.FlashsaleApi;
import io.flashsale.acceptance.api.SaleSpec;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * The broken and hostile requests of bad-input.feature, by the words the feature uses for them.
 * Reservations aim at the scenario's sale and its product "ticket"; new sales get a fresh id
 * ({@link #proposedSaleId()}) so the scenario can check that none was created.
 */
final class MalformedRequests {

    private static final String PRODUCT = "ticket";
    private static final int TEN_MEGABYTES = 10 * 1024 * 1024;
    // Fragments that would change our own sale's stock if anything ever pasted them into a script or a query.
    private static final String LUA_FRAGMENT = "ticket\"]) redis.call('INCRBY', KEYS[1], 1000) --";
    private static final String SQL_FRAGMENT = "ticket'; UPDATE activity_item SET stock = 0; --";

    private final SaleWorld world;
    private final String proposedSaleId;
    private final Map<String, Supplier<ApiCall>> byName = new LinkedHashMap<>();

    MalformedRequests(SaleWorld world) {
        this.world = world;
        this.proposedSaleId = world.unique("refused-sale");
        reservations();
        buyerIdentities();
        adminCalls();
        newSales();
    }

    String proposedSaleId() {
        return proposedSaleId;
    }

    ApiCall named(String name) {
        Supplier<ApiCall> call = byName.get(name);
        if (call == null) {
            throw new IllegalArgumentException("no malformed request is called \"" + name + "\"; known: " + byName.keySet());
        }
        return call.get();
    }

    private void reservations() {
        byName.put("a reservation whose message is cut off", () -> reservation("{\"items\": [{\"skuId\": \"ticket\", \"quantity\": 1}"));
        byName.put("a reservation whose message is not a message at all", () -> reservation("tickets please"));
        byName.put("a reservation for a negative quantity", () -> reservation(Map.of("items", List.of(line(PRODUCT, -1)))));
        byName.put("a reservation for zero tickets", () -> reservation(Map.of("items", List.of(line(PRODUCT, 0)))));
        byName.put("a reservation for a thousand and one tickets", () -> reservation(Map.of("items", List.of(line(PRODUCT, 1001)))));
        byName.put("a reservation for more tickets than any number can hold",
                () -> reservation("{\"items\": [{\"skuId\": \"ticket\", \"quantity\": 99999999999999999999}]}"));
        byName.put("a reservation whose quantity is a word", () -> reservation(Map.of("items", List.of(line(PRODUCT, "one")))));
        byName.put("a reservation whose quantity is a fraction",
                () -> reservation("{\"items\": [{\"skuId\": \"ticket\", \"quantity\": 1.5}]}"));
        byName.put("a reservation for a product named with accented letters", () -> reservationOf("tícket"));
        byName.put("a reservation for a product named with an emoji", () -> reservationOf("ticket\uD83C\uDF9F"));
        byName.put("a reservation for a product named with control characters", () -> reservationOf("tick\u0000et\r\n"));
        byName.put("a reservation for a product named like a piece of program code", () -> reservationOf(LUA_FRAGMENT));
        byName.put("a reservation for a product named like a database command", () -> reservationOf(SQL_FRAGMENT));
        byName.put("a reservation whose request id is a piece of program code",
                () -> reservation(Map.of("requestId", LUA_FRAGMENT, "items", List.of(line(PRODUCT, 1)))));
        byName.put("a reservation whose request id is 65 characters long",
                () -> reservation(Map.of("requestId", "r".repeat(65), "items", List.of(line(PRODUCT, 1)))));
        byName.put("a reservation whose idempotency key is a database command",
                () -> reservation(Map.of("items", List.of(line(PRODUCT, 1))))
                        .withHeader(FlashsaleApi.IDEMPOTENCY_HEADER, "k' OR '1'='1"));
        byName.put("a reservation with a field nobody knows",
                () -> reservation(Map.of("items", List.of(line(PRODUCT, 1)), "discountPercent", 100)));
        byName.put("a reservation for no products", () -> reservation(Map.of("items", List.of())));
        byName.put("a reservation without a list of products", () -> reservation(Map.of()));
        byName.put("a reservation naming the same product twice",
                () -> reservation(Map.of("items", List.of(line(PRODUCT, 1), line(PRODUCT, 1)))));
        byName.put("a reservation for fifty-one different products", () -> reservation(Map.of("items",
                IntStream.rangeClosed(1, 51).mapToObj(i -> line("sku-" + i, 1)).toList())));
        byName.put("a reservation of ten megabytes", () -> reservation(Map.of("items", List.of(line(PRODUCT, 1))))
                .withBody(tenMegabytes()));
    }

    private void buyerIdentities() {
        byName.put("a reservation from a buyer who is not signed in",
                () -> reservationOf(PRODUCT).withoutHeader(FlashsaleApi.SIGN_IN_HEADER));
        byName.put("a reservation that only says which buyer it is from, without signing in",
                () -> reservationOf(PRODUCT).withoutHeader(FlashsaleApi.SIGN_IN_HEADER).withHeader("X-User-Id",
                        "alice"));
        byName.put("a reservation signed in under an empty name", () -> signedInAs(TestBuyerTokens.rsa(), ""));
        byName.put("a reservation signed in under a name of 65 characters",
                () -> signedInAs(TestBuyerTokens.rsa(), "b".repeat(65)));
        byName.put("a reservation signed in under a name like a database command",
                () -> signedInAs(TestBuyerTokens.rsa(), "alice' OR '1'='1"));
        byName.put("a reservation signed in under a name like a path", () -> signedInAs(TestBuyerTokens.rsa(),
                "../admin"));
        byName.put("a reservation signed in by someone other than the shop",
                () -> signedInAs(TestBuyerTokens.newRsa(), "alice"));
        byName.put("a reservation whose sign-in has run out", () -> reservationOf(PRODUCT).withHeader(
                FlashsaleApi.SIGN_IN_HEADER, "Bearer " + TestBuyerTokens.rsa().token(
                        TestBuyerTokens.claims("alice", Instant.now().minus(Duration.ofHours(1))))));
        byName.put("a reservation whose sign-in is not a sign-in at all", () -> reservationOf(PRODUCT)
                .withHeader(FlashsaleApi.SIGN_IN_HEADER, "Bearer not-a-token"));
    }

    private ApiCall signedInAs(TestBuyerTokens issuer, String buyer) {
        return reservationOf(PRODUCT).withHeader(FlashsaleApi.SIGN_IN_HEADER, "Bearer " + issuer.forBuyer(buyer));
    }

    private void adminCalls() {
        FlashsaleApi api = world.api();
        byName.put("a new sale without the admin token",
                () -> api.createSale(aNewSale().toBody()).withoutHeader("Authorization"));
        byName.put("a new sale with a wrong admin token",
                () -> api.createSale(aNewSale().toBody()).withHeader("Authorization", "Bearer not-the-token"));
        byName.put("a new sale with the admin token given as a password",
                () -> api.createSale(aNewSale().toBody()).withHeader("Authorization", "Basic YWRtaW46YWRtaW4="));
        byName.put("loading a sale by hand without the admin token",
                () -> api.warmUp(world.sale().id()).withoutHeader("Authorization"));
        byName.put("a stock view with a wrong admin token",
                () -> api.stockView(world.sale().id()).withHeader("Authorization", "Bearer not-the-token"));
    }

    private void newSales() {
        FlashsaleApi api = world.api();
        byName.put("a new sale that ends before it starts", () -> {
            SaleSpec sale = aNewSale();
            return api.createSale(with(sale.toBody(), "endsAt", sale.startsAt().minusSeconds(1).toString()));
        });
        byName.put("a new sale with a negative stock",
                () -> api.createSale(with(aNewSale().toBody(), "items", List.of(Map.of("skuId", PRODUCT, "stock", -5)))));
        byName.put("a new sale listing the same product twice", () -> api.createSale(with(aNewSale().toBody(), "items",
                List.of(Map.of("skuId", PRODUCT, "stock", 5), Map.of("skuId", PRODUCT, "stock", 7)))));
        byName.put("a new sale with a limit of zero per buyer",
                () -> api.createSale(with(aNewSale().toBody(), "perUserLimit", 0)));
        byName.put("a new sale with a field nobody knows",
                () -> api.createSale(with(aNewSale().toBody(), "freeShipping", true)));
        byName.put("a new sale whose id holds control characters",
                () -> api.createSale(with(aNewSale().toBody(), "id", "sale\u0000\u0007")));
    }

    private SaleSpec aNewSale() {
        Instant startsAt = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        return new SaleSpec(proposedSaleId, "Refused sale", startsAt, startsAt.plus(Duration.ofHours(1)), 1,
                List.of(SaleSpec.Product.of(PRODUCT, 5)));
    }

    private ApiCall reservationOf(String skuId) {
        return reservation(Map.of("items", List.of(line(skuId, 1))));
    }

    private ApiCall reservation(Map<String, Object> request) {
        return world.api().reserve(world.sale().id(), world.buyerId("Mallory"), request);
    }

    private ApiCall reservation(String rawBody) {
        return reservation(Map.of()).withBody(rawBody.getBytes(StandardCharsets.UTF_8));
    }

    private static Map<String, Object> line(String skuId, Object quantity) {
        return Map.of("skuId", skuId, "quantity", quantity);
    }

    private static Map<String, Object> with(Map<String, Object> body, String field, Object value) {
        var changed = new LinkedHashMap<>(body);
        changed.put(field, value);
        return changed;
    }

    /** A well-formed reservation padded with a 10 MB request id: only its size is wrong. */
    private static byte[] tenMegabytes() {
        String body = "{\"items\": [{\"skuId\": \"ticket\", \"quantity\": 1}], \"requestId\": \""
                + "r".repeat(TEN_MEGABYTES) + "\"}";
        return body.getBytes(StandardCharsets.UTF_8);
    }
}
