package io.flashsale.acceptance.steps;

import io.cucumber.datatable.DataTable;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.flashsale.acceptance.CucumberSpringConfiguration;
import io.flashsale.acceptance.api.ApiAnswer;
import io.flashsale.acceptance.inspect.ShopDatabase;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.flashsale.acceptance.steps.Answers.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The operators changing a product's stock by hand during a sale: one proposes, a different one approves (ADR 84);
 * always audited, never below what is sold. Each operator acts with an admin token of their own.
 */
public class StockAdjustmentSteps {

    private final SaleWorld world;
    private final ShopDatabase books;
    private final List<JsonNode> recorded = new ArrayList<>();
    private ApiAnswer lastProposal;
    private ApiAnswer lastChange;
    private String lastProposer;
    private String lastApprover;
    private String lastReason;

    public StockAdjustmentSteps(SaleWorld world, ShopDatabase books) {
        this.world = world;
        this.books = books;
    }

    @When("the operator {buyer} proposes adding {int} {product} because {string}")
    public void proposesAdding(String operator, int units, String skuId, String reason) {
        propose(operator, units, skuId, reason);
    }

    @When("the operator {buyer} proposes removing {int} {product} because {string}")
    public void proposesRemoving(String operator, int units, String skuId, String reason) {
        propose(operator, -units, skuId, reason);
    }

    @When("the operator {buyer} approves the proposal")
    public void approves(String operator) {
        lastApprover = operator;
        lastChange = decide(operator, "approval");
    }

    @When("the operator {buyer} rejects the proposal")
    public void rejects(String operator) {
        lastChange = decide(operator, "rejection");
    }

    @When("the operator {buyer} withdraws the proposal")
    public void withdraws(String operator) {
        lastChange = decide(operator, "rejection");
    }

    @When("the operator {buyer} adds {int} {product} because {string}, approved by {buyer}")
    public void adds(String operator, int units, String skuId, String reason, String approver) {
        propose(operator, units, skuId, reason);
        approves(approver);
    }

    @When("the operator {buyer} removes {int} {product} because {string}, approved by {buyer}")
    public void removes(String operator, int units, String skuId, String reason, String approver) {
        propose(operator, -units, skuId, reason);
        approves(approver);
    }

    @When("{int} minutes pass without a decision")
    public void minutesPass(int minutes) {
        world.clock().advanceTo(world.clock().instant().plus(Duration.ofMinutes(minutes)));
    }

    @Then("the change waits for a second operator and nothing has changed yet")
    public void waits() {
        assertThat(lastProposal.status()).as("the proposal: %s", lastProposal.describe()).isEqualTo(202);
        assertThat(lastProposal.text("status")).isEqualTo("PENDING");
        assertThat(lastProposal.text("proposedBy")).isEqualTo(lastProposer);
    }

    @Then("the approval is refused because a second operator must approve the change")
    public void refusedSameOperator() {
        assertRefused(lastChange, 403, "SAME_OPERATOR");
    }

    @Then("the approval is refused because the proposal expired")
    public void refusedExpired() {
        assertRefused(lastChange, 409, "PROPOSAL_EXPIRED");
    }

    @Then("the approval is refused because the proposal was closed already")
    public void refusedClosed() {
        assertRefused(lastChange, 409, "PROPOSAL_CLOSED");
    }

    @Then("the change is recorded with its operator and reason, taking {product} from {int} to {int}")
    public void recordedTaking(String skuId, long before, long after) {
        ApiAnswer answer = lastChange;
        assertThat(answer.status()).as("the approval: %s", answer.describe()).isEqualTo(200);
        JsonNode proposal = answer.json().path("proposal");
        assertThat(proposal.path("status").asString("")).as("approved: %s", answer.describe()).isEqualTo("APPROVED");
        assertThat(proposal.path("proposedBy").asString("")).isEqualTo(lastProposer);
        assertThat(proposal.path("decidedBy").asString("")).as("approved by: %s", answer.describe())
                .isEqualTo(lastApprover);
        JsonNode applied = answer.json().path("applied");
        JsonNode adjustment = applied.path("adjustment");
        assertThat(adjustment.path("id").asLong(-1)).as("the proposal names it: %s", answer.describe())
                .isEqualTo(proposal.path("adjustmentId").asLong());
        assertThat(adjustment.path("skuId").asString("")).as("product: %s", answer.describe()).isEqualTo(skuId);
        assertThat(adjustment.path("delta").asLong()).as("delta: %s", answer.describe()).isEqualTo(after - before);
        assertThat(adjustment.path("stockBefore").asLong(-1)).as("before: %s", answer.describe()).isEqualTo(before);
        assertThat(adjustment.path("stockAfter").asLong(-1)).as("after: %s", answer.describe()).isEqualTo(after);
        assertThat(adjustment.path("operator").asString("")).as("operator: %s", answer.describe())
                .isEqualTo(lastProposer);
        assertThat(adjustment.path("reason").asString("")).as("reason: %s", answer.describe())
                .isEqualTo(lastReason);
        assertThat(adjustment.path("createdAt").asString("")).as("when: %s", answer.describe()).isNotBlank();
        assertThat(applied.path("hotStore").asString("")).as("the fast store: %s", answer.describe())
                .isEqualTo("APPLIED");
        JsonNode report = applied.path("report");
        // A sale in slices reconciles a slice here only when it could not take its part (ADR 112); every slice is
        // reconciled with the whole sale right after the change.
        boolean everySliceTookItsPart = world.sale().slices().isPresent()
                && (report.isNull() || report.isMissingNode());
        if (!everySliceTookItsPart) {
            assertThat(SkuReport.from(report).isClean()).as("the reconciliation after the change finds nothing wrong: %s",
                    answer.describe()).isTrue();
        }
        recorded.add(adjustment);
    }

    @Then("the whole sale was checked after the change and found in order")
    public void saleReconciled() {
        JsonNode reconciliation = lastChange.json().path("reconciliation");
        assertThat(reconciliation.path("hotStore").asString("")).as("the sale's reconciliation: %s",
                lastChange.describe()).isEqualTo("LOADED");
        List<JsonNode> reports = new ArrayList<>();
        reconciliation.path("reports").forEach(reports::add);
        // A sale in slices is reconciled slice by slice: one report per product and slice (ADR 110).
        assertThat(reports).as("one report per product and slice: %s", lastChange.describe())
                .hasSize(world.sale().products().size() * world.sale().slices().orElse(1));
        reports.forEach(report -> assertThat(SkuReport.from(report).isClean())
                .as("nothing wrong with %s", report).isTrue());
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

    @Then("the sale's proposed stock changes read:")
    public void proposalsRead(DataTable table) {
        ApiAnswer answer = world.api().send(world.api().stockChangeProposals(world.sale().id()));
        assertThat(answer.status()).as("the proposals: %s", answer.describe()).isEqualTo(200);
        List<Map<String, String>> listed = new ArrayList<>();
        answer.json().path("proposals").forEach(proposal -> {
            Map<String, String> row = new LinkedHashMap<>();
            row.put("proposed by", proposal.path("proposedBy").asString(""));
            row.put("change", Long.toString(proposal.path("delta").asLong()));
            row.put("status", proposal.path("status").asString("").toLowerCase());
            row.put("decided by", proposal.path("decidedBy").asString(""));
            listed.add(row);
        });
        List<Map<String, String>> expected = table.asMaps().stream()
                .map(row -> {
                    Map<String, String> copy = new LinkedHashMap<>(row);
                    copy.replaceAll((key, value) -> value == null ? "" : value);
                    return copy;
                })
                .toList();
        assertThat(listed).as("the proposals: %s", answer.describe()).isEqualTo(expected);
    }

    /** Over every slice of a sale in slices: the admin's stock view sums the slices' ledgers. */
    @Then("the fast store offers {int} {product} out of {int}")
    public void offers(long available, String skuId, long total) {
        StockLine stock = world.stockOf(skuId);
        assertThat(stock.total()).as("total: %s", stock).isEqualTo(total);
        assertThat(stock.available()).as("available: %s", stock).isEqualTo(available);
    }

    private void propose(String operator, int delta, String skuId, String reason) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("skuId", skuId);
        body.put("delta", delta);
        body.put("reason", reason);
        lastProposer = operator;
        lastReason = reason;
        // Not among the buyers' answers: a proposal's 202 is no accepted reservation.
        lastProposal = world.api().send(world.api().proposeStockChange(world.sale().id(), tokenOf(operator), body));
        lastChange = lastProposal;
    }

    private ApiAnswer decide(String operator, String decision) {
        assertThat(lastProposal.status()).as("the proposal: %s", lastProposal.describe()).isEqualTo(202);
        return world.api().send(world.api().decideStockChange(world.sale().id(), lastProposal.json().path("id").asLong(),
                decision, tokenOf(operator)));
    }

    private static String tokenOf(String operator) {
        String token = CucumberSpringConfiguration.OPERATOR_TOKENS.get(operator);
        assertThat(token).as("operator %s has a token (CucumberSpringConfiguration)", operator).isNotNull();
        return token;
    }
}
