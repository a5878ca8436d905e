package io.flashsale.acceptance.steps;

import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.flashsale.acceptance.api.ApiAnswer;
import io.flashsale.acceptance.inspect.HotStore;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A difference above the auto-repair limit (ADR 85, 10 units by default): the fast store is left as found until the
 * operator approves the repair, which mends what is found at that moment.
 */
public class RepairReviewSteps {

    /** The one admin token's holder, as the admin authentication names the operator. */
    private static final String TOKEN_HOLDER = "admin";

    private final SaleWorld world;
    private final HotStore hotStore;
    private final ReconciliationSteps reconciliations;
    private ApiAnswer approval;

    public RepairReviewSteps(SaleWorld world, HotStore hotStore, ReconciliationSteps reconciliations) {
        this.world = world;
        this.hotStore = hotStore;
        this.reconciliations = reconciliations;
    }

    @When("the fast store counts {int} more {product} as sold than it did")
    public void countsMoreSold(int units, String skuId) {
        hotStore.countMoreSold(world.sale().id(), skuId, units);
    }

    @Then("the reconciliation leaves the {product} as found and asks an operator to review a difference of {int} units")
    public void leftForReview(String skuId, int units) {
        JsonNode report = reportOf(reconciliations.lastReport(), skuId);
        assertThat(report.path("action").asString("")).as("done: %s", report).isEqualTo("NEEDS_REVIEW");
        assertThat(report.path("driftUnits").asLong()).as("the difference: %s", report).isEqualTo(units);
        assertThat(report.path("after")).as("the fast store after: %s", report).isEqualTo(report.path("actual"));
    }

    @Then("the {product} wait(s) for an operator's approval")
    public void waiting(String skuId) {
        assertThat(waitingProducts()).containsExactly(skuId);
    }

    @Then("nothing waits for an operator's approval")
    public void nothingWaiting() {
        assertThat(waitingProducts()).isEmpty();
    }

    @When("the operator approves the repair of the {product}")
    public void approve(String skuId) {
        approval = world.api().send(world.api().approveRepair(world.sale().id(), skuId));
    }

    @Then("the approved repair mends a difference of {int} units from the shop's books, recorded as approved by the operator")
    public void approvedRepair(int units) {
        assertThat(approval.status()).as("approving: %s", approval.describe()).isEqualTo(200);
        JsonNode report = approval.json();
        assertThat(report.path("action").asString("")).as("done: %s", report).isEqualTo("REPAIRED");
        assertThat(report.path("driftUnits").asLong()).as("the difference mended: %s", report).isEqualTo(units);
        assertThat(report.path("after")).as("the fast store after: %s", report).isEqualTo(report.path("expected"));
        assertThat(report.path("detail").asString("")).contains("repair approved by " + TOKEN_HOLDER);
    }

    @Then("the approval is refused because no repair of the {product} waits for one")
    public void approvalRefused(String skuId) {
        assertThat(approval.status()).as("approving %s again: %s", skuId, approval.describe()).isEqualTo(409);
        assertThat(approval.text("code")).isEqualTo("NO_REPAIR_AWAITING_APPROVAL");
    }

    @Then("the reconciliation repairs the {product} by itself")
    public void repairedByItself(String skuId) {
        JsonNode report = reportOf(reconciliations.lastReport(), skuId);
        assertThat(report.path("action").asString("")).as("done: %s", report).isEqualTo("REPAIRED");
        assertThat(report.path("detail").asString("")).as("no approval: %s", report).doesNotContain("approved by");
    }

    private List<String> waitingProducts() {
        ApiAnswer answer = world.api().send(world.api().repairsAwaitingReview(world.sale().id()));
        assertThat(answer.status()).as("listing: %s", answer.describe()).isEqualTo(200);
        List<String> products = new ArrayList<>();
        answer.json().path("reports").forEach(report -> products.add(report.path("skuId").asString("")));
        return products;
    }

    private static JsonNode reportOf(JsonNode reconciliation, String skuId) {
        assertThat(reconciliation).as("a reconciliation report").isNotNull();
        for (JsonNode sku : reconciliation.path("reports")) {
            if (skuId.equals(sku.path("skuId").asString(""))) {
                return sku;
            }
        }
        throw new AssertionError("the reconciliation does not report on " + skuId + ": " + reconciliation);
    }
}
