package io.flashsale.acceptance.steps;

import io.cucumber.datatable.DataTable;
import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.flashsale.acceptance.api.ApiAnswer;
import io.flashsale.acceptance.api.SaleSpec;
import io.flashsale.acceptance.api.SaleSpec.Product;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Setting up sales as the admin would, and reading their stock back. */
public class SaleSteps {

    /** The product of a single-SKU sale: the features only say "one SKU". */
    static final String ONLY_SKU = "hot-item";

    private final SaleWorld world;

    public SaleSteps(SaleWorld world) {
        this.world = world;
    }

    @Given("a sale with {int} unit(s) of one product and a limit of {int} per buyer that has started and is ready to sell")
    public void aStartedWarmSaleOfOneSku(int units, int limit) {
        world.open(startedSale(limit, List.of(Product.of(ONLY_SKU, units))));
        theSaleIsWarmedUp();
    }

    @Given("a sale with {int} unit(s) of one product kept in {int} separate counters and a limit of {int} per buyer that has started and is ready to sell")
    public void aStartedWarmSaleOfOneSegmentedSku(int units, int segments, int limit) {
        Product split = new Product(ONLY_SKU, units, OptionalInt.empty(), OptionalInt.of(segments));
        world.open(startedSale(limit, List.of(split)));
        theSaleIsWarmedUp();
    }

    @Given("a sale with {int} unit(s) of one product split into {int} slices and a limit of {int} per buyer that has started and is ready to sell")
    public void aStartedWarmSaleInSlices(int units, int slices, int limit) {
        world.open(startedSale(limit, List.of(Product.of(ONLY_SKU, units))).inSlices(slices));
        theSaleIsWarmedUp();
    }

    @Given("a sale that has started with a limit of {int} per buyer, offering:")
    public void aStartedSale(int limit, DataTable offer) {
        world.open(startedSale(limit, products(offer)));
    }

    @Given("a sale that has started with a limit of {int} per buyer, split into {int} slices, offering:")
    public void aStartedSaleInSlices(int limit, int slices, DataTable offer) {
        world.open(startedSale(limit, products(offer)).inSlices(slices));
    }

    @Given("a sale that has started with a limit of {int} per buyer and {int} second(s) to pay, offering:")
    public void aStartedSaleWithPaymentTimeLimit(int limit, int seconds, DataTable offer) {
        world.open(startedSale(limit, products(offer)).withPaymentTimeout(seconds));
    }

    /**
     * Minutes, so that a loaded machine never ends the sale before the scenario says it has ended (the clock jumps
     * there), and fewer than the default 15 minutes to pay, so that the jump lets no order lapse.
     */
    @Given("a sale that has started and ends in {int} minute(s), with a limit of {int} per buyer, offering:")
    public void aStartedSaleEndingLater(int minutes, int limit, DataTable offer) {
        Instant endsAt = now().plus(Duration.ofMinutes(minutes));
        world.open(sale(endsAt.minus(Duration.ofHours(1)), endsAt, limit, products(offer)));
    }

    @Given("a sale that starts in {int} hour(s), offering:")
    public void aSaleStartingLater(int hours, DataTable offer) {
        Instant startsAt = now().plus(Duration.ofHours(hours));
        world.open(sale(startsAt, startsAt.plus(Duration.ofHours(1)), 1, products(offer)));
    }

    @Given("a sale that ended {int} minute(s) ago, offering:")
    public void aSaleThatEnded(int minutes, DataTable offer) {
        Instant endsAt = now().minus(Duration.ofMinutes(minutes));
        world.open(sale(endsAt.minus(Duration.ofHours(1)), endsAt, 1, products(offer)));
    }

    @Given("the sale is ready to sell")
    public void theSaleIsWarmedUp() {
        SaleSpec sale = world.sale();
        ApiAnswer warmed = world.api().send(world.api().warmUp(sale.id()));
        assertThat(warmed.status()).as("warming up: %s", warmed.describe()).isEqualTo(200);
        Map<String, Long> available = new HashMap<>();
        for (JsonNode item : warmed.json().path("items")) {
            available.put(item.path("skuId").asString(""), item.path("available").asLong(-1));
        }
        for (Product product : sale.products()) {
            assertThat(available).as("available after warm-up: %s", warmed.describe())
                    .containsEntry(product.skuId(), product.units());
        }
    }

    @Then("{int} {product} is/are still available")
    public void stillAvailable(long units, String skuId) {
        StockLine stock = world.stockOf(skuId);
        long total = world.sale().unitsOf(skuId);
        assertThat(stock.available()).as("%s available: %s", skuId, stock).isEqualTo(units);
        assertThat(stock.total()).as("%s total: %s", skuId, stock).isEqualTo(total);
        assertThat(stock.taken()).as("%s reserved or sold: %s", skuId, stock).isEqualTo(total - units);
    }

    /**
     * Units a lapse gives back reach the fast store a moment after the shop's books record the lapse (the books
     * decide, then tell the fast store): the buyer-visible promise is that they come back, soon.
     */
    @Then("within {int} seconds {int} {product} is/are available again")
    public void availableAgainWithin(int seconds, long units, String skuId) {
        await(skuId + " back on sale").atMost(Duration.ofSeconds(seconds)).pollInterval(Duration.ofMillis(50))
                .pollInSameThread().untilAsserted(() -> stillAvailable(units, skuId));
    }

    @Then("no stock remains")
    public void noStockRemains() {
        StockLine stock = world.stockOf(ONLY_SKU);
        long total = world.sale().unitsOf(ONLY_SKU);
        assertThat(stock.available()).as("available: %s", stock).isZero();
        assertThat(stock.total()).as("total: %s", stock).isEqualTo(total);
        assertThat(stock.taken()).as("reserved or sold: %s", stock).isEqualTo(total);
    }

    @Then("no {product} has/have been taken")
    public void noneTaken(String skuId) {
        StockLine stock = world.stockOf(skuId);
        long total = world.sale().unitsOf(skuId);
        assertThat(stock).as("untouched stock of " + skuId).isEqualTo(new StockLine(skuId, total, total, 0, 0));
    }

    private SaleSpec startedSale(int limit, List<Product> products) {
        Instant startsAt = now().minus(Duration.ofMinutes(1));
        return sale(startsAt, startsAt.plus(Duration.ofHours(2)), limit, products);
    }

    private SaleSpec sale(Instant startsAt, Instant endsAt, int limit, List<Product> products) {
        String id = world.unique("sale");
        return new SaleSpec(id, "Acceptance sale " + id, startsAt, endsAt, limit, products);
    }

    /** Columns: product, units, and optionally "limit per buyer" and "counters" (the stock's segments). */
    private static List<Product> products(DataTable offer) {
        return offer.asMaps().stream().map(row -> new Product(
                row.get("product"),
                Long.parseLong(row.get("units")),
                optionalNumber(row.get("limit per buyer")),
                optionalNumber(row.get("counters")))).toList();
    }

    private static OptionalInt optionalNumber(String cell) {
        return cell == null || cell.isBlank() ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(cell.trim()));
    }

    // The service's time, in whole seconds: the sale's times come back from the database exactly as they were sent.
    private Instant now() {
        return world.clock().instant().truncatedTo(ChronoUnit.SECONDS);
    }
}
