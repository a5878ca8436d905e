package io.flashsale.acceptance.steps;

import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.flashsale.acceptance.api.ApiAnswer;
import io.flashsale.acceptance.api.SaleSpec.Product;
import io.flashsale.acceptance.inspect.HotStore;
import io.flashsale.acceptance.inspect.ShopDatabase;
import io.flashsale.acceptance.inspect.ShopDatabase.ItemRecord;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static io.flashsale.acceptance.steps.Answers.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Clearing an ended sale out of the fast store, and what stays on the books afterwards. */
public class ArchiveSteps {

    /** A bucket's key outlives its bucket's refill (2 s at the scenarios' limits) by 5 s. */
    private static final Duration BUCKETS_EXPIRED = Duration.ofSeconds(15);

    private final SaleWorld world;
    private final ShopDatabase books;
    private final HotStore hotStore;

    public ArchiveSteps(SaleWorld world, ShopDatabase books, HotStore hotStore) {
        this.world = world;
        this.books = books;
        this.hotStore = hotStore;
    }

    @When("the operator archives the sale")
    @When("the operator archives the sale again")
    public void archives() {
        world.send(world.api().archive(world.sale().id()));
    }

    @When("the operator tries to load the sale into the fast store again")
    public void warmsUpAgain() {
        world.send(world.api().warmUp(world.sale().id()));
    }

    @Then("the sale is archived")
    public void archived() {
        ApiAnswer answer = world.lastAnswer();
        assertThat(answer.status()).as("the archive: %s", answer.describe()).isEqualTo(200);
        assertThat(answer.text("activityId")).as("the sale archived").isEqualTo(world.sale().id());
        assertThat(Instant.parse(answer.text("archivedAt"))).as("archived once the sale had ended: %s",
                answer.describe()).isAfterOrEqualTo(world.sale().endsAt());
    }

    @Then("both archives name the same moment")
    public void bothArchivesNameTheSameMoment() {
        List<ApiAnswer> two = world.lastAnswers(2);
        two.forEach(answer -> assertThat(answer.status()).as("an archive: %s", answer.describe()).isEqualTo(200));
        assertThat(two.get(1).text("archivedAt")).as("the second archive names the first one's moment")
                .isEqualTo(two.get(0).text("archivedAt"));
    }

    @Then("the archive is refused because the sale has not ended yet, and the operator is told when it ends")
    public void refusedNotEnded() {
        ApiAnswer answer = world.lastAnswer();
        assertRefused(answer, 409, "ACTIVITY_NOT_ENDED");
        assertThat(Instant.parse(answer.text("endsAt"))).as("the end told: %s", answer.describe())
                .isEqualTo(world.sale().endsAt());
    }

    @Then("the archive is refused for now, and the operator is asked to try again later")
    public void refusedPending() {
        ApiAnswer answer = world.lastAnswer();
        assertRefused(answer, 409, "RESERVATIONS_PENDING");
        assertThat(answer.header("Retry-After")).as("when to try again: %s", answer.describe())
                .hasValueSatisfying(seconds -> assertThat(Integer.parseInt(seconds.trim())).isPositive());
    }

    @Then("the operator is refused because the sale is archived")
    public void refusedArchived() {
        assertRefused(world.lastAnswer(), 409, "ACTIVITY_ARCHIVED");
    }

    /**
     * The archive deletes the sale's keys; the buyers' rate-limit buckets of the last seconds (ADR 60) are not the
     * archive's to find, and expire on their own within seconds of a buyer's last attempt.
     */
    @Then("the fast store holds nothing of the sale any more")
    public void fastStoreHoldsNothing() {
        String saleId = world.sale().id();
        // In this thread: the scenario's world lives in the scenario's (thread-bound) scope.
        await().atMost(BUCKETS_EXPIRED).pollInterval(Duration.ofMillis(250)).pollInSameThread().untilAsserted(() ->
                assertThat(hotStore.keysOf(saleId)).as("the sale's keys in the fast store").isEmpty());
    }

    @Then("the fast store still holds the sale")
    public void fastStoreStillHoldsTheSale() {
        assertThat(hotStore.keysOf(world.sale().id())).as("the sale's keys in the fast store").isNotEmpty();
    }

    /** The public view of the sale, now read from the books: its products, stock and the units left of it. */
    @Then("anyone can still look at the sale, with what is left of each product as the books say")
    public void saleCanStillBeLookedAt() {
        ApiAnswer shown = world.api().send(world.api().sale(world.sale().id()));
        assertThat(shown.status()).as("the sale's public view: %s", shown.describe()).isEqualTo(200);
        assertThat(shown.text("id")).isEqualTo(world.sale().id());
        JsonNode items = shown.json().path("items");
        assertThat(items.size()).as("products shown: %s", shown.describe()).isEqualTo(world.sale().products().size());
        for (Product product : world.sale().products()) {
            ItemRecord item = books.item(world.sale().id(), product.skuId());
            JsonNode line = lineOf(items, product.skuId(), shown);
            assertThat(line.path("stock").asLong(-1)).as("stock of %s: %s", product.skuId(), shown.describe())
                    .isEqualTo(product.units());
            assertThat(line.path("available").asLong(-1)).as("left of %s: %s", product.skuId(), shown.describe())
                    .isEqualTo(item.stock() - item.sold());
        }
    }

    private static JsonNode lineOf(JsonNode items, String skuId, ApiAnswer shown) {
        for (JsonNode item : items) {
            if (skuId.equals(item.path("skuId").asString(""))) {
                return item;
            }
        }
        throw new AssertionError("the sale's view does not list " + skuId + ": " + shown.describe());
    }
}
