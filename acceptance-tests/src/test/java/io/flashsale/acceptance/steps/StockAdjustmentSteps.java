package io.flashsale.acceptance.steps;

import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.flashsale.acceptance.api.ApiAnswer;
import io.flashsale.acceptance.inspect.ShopDatabase;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.flashsale.acceptance.steps.Answers.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

/** The operator changing a product's stock by hand during a sale: always audited, never below what is sold. */
public class StockAdjustmentSteps {

    private final SaleWorld world;
    private final List<JsonNode> recorded = new ArrayList<>();
    private ApiAnswer lastChange;
    private String lastOperator;
    private String lastReason;

    private final ShopDatabase books;

    public StockAdjustmentSteps(SaleWorld world, ShopDatabase books) {
        this.world = world;
        this.books = books;
    }

    @When("the operator {buyer} adds {int} {product} because {string}")
    public void adds(String operator, int units, String skuId, String reason) {
        change(operator, units, skuId, reason);
    }

    @When("the operator {buyer} removes {int} {product} because {string}")
    public void removes(String operator, int units, String skuId, String reason) {
        change(operator, -units, skuId, reason);
    }

    @Then("the change is recorded with its operator and reason, taking {product} from {int} to {int}")
    public void recordedTaking(String skuId, long before, long after) {
        ApiAnswer answer = lastChange;
        assertThat(answer.status()).as("the change: %s", answer.describe()).isEqualTo(201);
        JsonNode adjustment = answer.json().path("adjustment");
        assertThat(adjustment.path("id").isMissingNode()).as("an id: %s", answer.describe()).isFalse();
        assertThat(adjustment.path("skuId").asString("")).as("product: %s", answer.describe()).isEqualTo(skuId);
        assertThat(adjustment.path("delta").asLong()).as("delta: %s", answer.describe()).isEqualTo(after - before);
        assertThat(adjustment.path("stockBefore").asLong(-1)).as("before: %s", answer.describe()).isEqualTo(before);
        assertThat(adjustment.path("stockAfter").asLong(-1)).as("after: %s", answer.describe()).isEqualTo(after);
        assertThat(adjustment.path("operator").asString("")).as("operator: %s", answer.describe())
                .isEqualTo(lastOperator);
        assertThat(adjustment.path("reason").asString("")).as("reason: %s", answer.describe())
                .isEqualTo(lastReason);
        assertThat(adjustment.path("createdAt").asString("")).as("when: %s", answer.describe()).isNotBlank();
        assertThat(answer.json().path("hotStore").asString("")).as("the fast store: %s", answer.describe())
                .isEqualTo("APPLIED");
        SkuReport report = SkuReport.from(answer.json().path("report"));
        assertThat(report.isClean()).as("the reconciliation after the change finds nothing wrong: %s",
                answer.describe()).isTrue();
        recorded.add(adjustment);
    }

    @Then("the change is refused because fewer {product} would remain than are already sold")
    public void refusedBelowSold(String skuId) {
        assertRefused(lastChange, 409, "STOCK_BELOW_SOLD");
        assertThat(recorded).as("changes recorded before the refusal").isNotEmpty();
        assertThat(books.item(world.sale().id(), skuId).stock()).as("the books' stock of %s after the refusal", skuId)
                .isEqualTo(recorded.getLast().path("stockAfter").asLong());
    }

    @Then("the sale's stock changes list exactly the recorded changes, in order")
    public void listed() {
        ApiAnswer answer = world.api().send(world.api().stockAdjustments(world.sale().id()));
        assertThat(answer.status()).as("the list: %s", answer.describe()).isEqualTo(200);
        assertThat(answer.text("activityId")).as("the list's sale").isEqualTo(world.sale().id());
        List<JsonNode> listed = new ArrayList<>();
        answer.json().path("adjustments").forEach(listed::add);
        assertThat(listed).as("changes listed: %s", answer.describe()).isEqualTo(recorded);
    }

    @Then("the fast store offers {int} {product} out of {int}")
    public void offers(long available, String skuId, long total) {
        StockLine stock = world.stockOf(skuId);
        assertThat(stock.total()).as("total: %s", stock).isEqualTo(total);
        assertThat(stock.available()).as("available: %s", stock).isEqualTo(available);
    }

    private void change(String operator, int delta, String skuId, String reason) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("skuId", skuId);
        body.put("delta", delta);
        body.put("reason", reason);
        lastOperator = operator;
        lastReason = reason;
        lastChange = world.send(world.api().adjustStock(world.sale().id(), operator, body));
    }
}
