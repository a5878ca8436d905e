package io.flashsale.bootstrap.api;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Stock adjustments under four eyes (ADR 84), over HTTP on the real servers: olivia proposes, she cannot approve her
 * own, peter's approval applies it in MySQL and Redis once and reconciles the sale; an expired proposal is refused.
 * Proposals live a few seconds here, so that one can be seen expiring.
 */
@TestPropertySource(properties = "flashsale.adjustments.proposal-ttl=6s")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class StockAdjustmentApprovalIT extends ApiTestBase {

    private static String adjustment(String skuId, long delta, String reason) {
        return "{\"skuId\":\"" + skuId + "\",\"delta\":" + delta + ",\"reason\":\"" + reason + "\"}";
    }

    private static String proposals(String activityId) {
        return "/api/v1/activities/" + activityId + "/stock-adjustments/proposals";
    }

    private Reply propose(String token, String activityId, String body) {
        return asOperator(token, "POST", "/api/v1/activities/" + activityId + "/stock-adjustments", body);
    }

    private Reply approve(String token, String activityId, long proposalId) {
        return asOperator(token, "POST", proposals(activityId) + "/" + proposalId + "/approval", null);
    }

    private Reply reject(String token, String activityId, long proposalId) {
        return asOperator(token, "POST", proposals(activityId) + "/" + proposalId + "/rejection", null);
    }

    private JsonNode adjustments(String activityId) {
        return asAdmin("GET", "/api/v1/activities/" + activityId + "/stock-adjustments", null).json()
                .path("adjustments");
    }

    @Test
    void givenOliviasProposal_whenSheApprovesIt_then403SameOperator_andPetersApprovalAppliesItAndReconcilesTheSale() {
        String id = openSale(2, item("sku-a", 10), item("sku-b", 5));
        assertThat(reserve(id, "buyer-1", lines(null, line("sku-a", 2))).status()).isEqualTo(202);

        Reply proposed = propose(OLIVIA_TOKEN, id, adjustment("sku-a", 5, "a returned pallet was found"));

        assertThat(proposed.status()).as(proposed.body()).isEqualTo(202);
        long proposalId = proposed.json().path("id").asLong();
        assertThat(proposed.header("Location")).endsWith(proposals(id) + "/" + proposalId);
        assertThat(proposed.json().path("status").asString()).isEqualTo("PENDING");
        assertThat(proposed.json().path("proposedBy").asString()).isEqualTo("olivia");
        assertThat(proposed.json().path("decidedBy").isNull()).isTrue();
        assertThat(ledger(id, "sku-a")).as("a proposal changes nothing").containsExactly(8, 2, 0);

        Reply own = asOperator(OLIVIA_TOKEN, "POST", proposals(id) + "/" + proposalId + "/approval", null);
        Reply spoofed = post(proposals(id) + "/" + proposalId + "/approval", "", "Authorization",
                "Bearer " + OLIVIA_TOKEN, "X-Operator", "peter");

        assertProblem(own, 403, "SAME_OPERATOR");
        assertThat(own.json().path("proposalId").asLong()).isEqualTo(proposalId);
        assertProblem(spoofed, 403, "SAME_OPERATOR");
        assertThat(ledger(id, "sku-a")).containsExactly(8, 2, 0);
        assertThat(adjustments(id).isEmpty()).isTrue();
        JsonNode pending = asAdmin("GET", proposals(id) + "?pending=true", null).json().path("proposals");
        assertThat(pending.size()).isEqualTo(1);
        assertThat(pending.get(0).path("id").asLong()).isEqualTo(proposalId);

        Reply approved = approve(PETER_TOKEN, id, proposalId);

        assertThat(approved.status()).as(approved.body()).isEqualTo(200);
        JsonNode body = approved.json();
        assertThat(body.path("proposal").path("status").asString()).isEqualTo("APPROVED");
        assertThat(body.path("proposal").path("decidedBy").asString()).isEqualTo("peter");
        assertThat(body.path("proposal").path("decidedAt").asString()).isNotBlank();
        JsonNode adjustment = body.path("applied").path("adjustment");
        assertThat(body.path("proposal").path("adjustmentId").asLong()).isEqualTo(adjustment.path("id").asLong());
        assertThat(adjustment.path("operator").asString()).isEqualTo("olivia");
        assertThat(adjustment.path("stockBefore").asLong()).isEqualTo(10);
        assertThat(adjustment.path("stockAfter").asLong()).isEqualTo(15);
        assertThat(body.path("applied").path("hotStore").asString()).isEqualTo("APPLIED");
        JsonNode reconciliation = body.path("reconciliation");
        assertThat(reconciliation.path("hotStore").asString()).isEqualTo("LOADED");
        assertThat(reconciliation.path("reports").size()).as("every SKU of the sale").isEqualTo(2);
        JsonNode skuA = reconciliation.path("reports").get(0);
        assertThat(skuA.path("skuId").asString()).isEqualTo("sku-a");
        assertThat(skuA.path("classification").asString()).isEqualTo("NONE");
        assertThat(skuA.path("expected").path("total").asLong()).isEqualTo(15);
        assertThat(skuA.path("actual").path("total").asLong()).isEqualTo(15);
        assertThat(ledger(id, "sku-a")).containsExactly(13, 2, 0);
        assertThat(adjustments(id).size()).isEqualTo(1);

        assertProblem(approve(OLIVIA_TOKEN, id, proposalId), 409, "PROPOSAL_CLOSED");
        Reply again = approve(ADMIN_TOKEN, id, proposalId);
        assertProblem(again, 409, "PROPOSAL_CLOSED");
        assertThat(again.json().path("proposalStatus").asString()).isEqualTo("APPROVED");
        assertProblem(reject(ADMIN_TOKEN, id, proposalId), 409, "PROPOSAL_CLOSED");
        assertThat(asAdmin("GET", proposals(id) + "?pending=true", null).json().path("proposals").isEmpty()).isTrue();
        assertThat(ledger(id, "sku-a")).containsExactly(13, 2, 0);
    }

    @Test
    void givenAProposalLeftPastItsExpiry_whenApproved_then409ProposalExpiredAndNothingChanges() {
        String id = openSale(2, item("sku-a", 10));
        long proposalId = propose(OLIVIA_TOKEN, id, adjustment("sku-a", 5, "late")).json().path("id").asLong();

        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).untilAsserted(() ->
                assertThat(asAdmin("GET", proposals(id) + "/" + proposalId, null).json().path("status").asString())
                        .isEqualTo("EXPIRED"));
        Reply approved = approve(PETER_TOKEN, id, proposalId);

        assertProblem(approved, 409, "PROPOSAL_EXPIRED");
        assertThat(approved.json().path("expiresAt").asString()).isNotBlank();
        assertThat(ledger(id, "sku-a")).containsExactly(10, 0, 0);
        assertThat(adjustments(id).isEmpty()).isTrue();
        assertThat(asAdmin("GET", proposals(id) + "?pending=true", null).json().path("proposals").isEmpty()).isTrue();
        Reply rejected = reject(PETER_TOKEN, id, proposalId);
        assertThat(rejected.status()).as(rejected.body()).isEqualTo(200);
        assertThat(rejected.json().path("status").asString()).isEqualTo("REJECTED");
    }

    @Test
    void givenTenApprovalsRacing_thenTheAdjustmentIsAppliedOnceAndTheOthersFindItClosed() throws Exception {
        String id = openSale(2, item("sku-a", 10));
        long proposalId = propose(OLIVIA_TOKEN, id, adjustment("sku-a", 5, "restock")).json().path("id").asLong();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Reply>> answers = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(10)) {
            for (int i = 0; i < 10; i++) {
                String token = i % 2 == 0 ? PETER_TOKEN : ADMIN_TOKEN;
                answers.add(pool.submit(() -> {
                    start.await();
                    return approve(token, id, proposalId);
                }));
            }
            start.countDown();
            int applied = 0;
            for (Future<Reply> answer : answers) {
                Reply reply = answer.get(60, TimeUnit.SECONDS);
                if (reply.status() == 200) {
                    applied++;
                } else {
                    assertProblem(reply, 409, "PROPOSAL_CLOSED");
                }
            }
            assertThat(applied).isEqualTo(1);
        }
        assertThat(adjustments(id).size()).isEqualTo(1);
        assertThat(ledger(id, "sku-a")).containsExactly(15, 0, 0);
    }

    @Test
    void givenPendingProposals_whenWithdrawnByTheProposerOrRejectedByAnother_thenClosedUnappliedAndListed() {
        String id = openSale(2, item("sku-a", 10));
        long first = propose(OLIVIA_TOKEN, id, adjustment("sku-a", 5, "first")).json().path("id").asLong();
        long second = propose(OLIVIA_TOKEN, id, adjustment("sku-a", -2, "second")).json().path("id").asLong();

        Reply withdrawn = reject(OLIVIA_TOKEN, id, first);
        Reply rejected = reject(PETER_TOKEN, id, second);

        assertThat(withdrawn.status()).as(withdrawn.body()).isEqualTo(200);
        assertThat(withdrawn.json().path("status").asString()).isEqualTo("WITHDRAWN");
        assertThat(withdrawn.json().path("decidedBy").asString()).isEqualTo("olivia");
        assertThat(rejected.json().path("status").asString()).isEqualTo("REJECTED");
        assertThat(rejected.json().path("decidedBy").asString()).isEqualTo("peter");
        assertProblem(approve(PETER_TOKEN, id, first), 409, "PROPOSAL_CLOSED");
        JsonNode all = asAdmin("GET", proposals(id), null).json();
        assertThat(all.path("activityId").asString()).isEqualTo(id);
        assertThat(all.path("proposals").findValuesAsString("status")).containsExactly("WITHDRAWN", "REJECTED");
        assertThat(ledger(id, "sku-a")).containsExactly(10, 0, 0);
        assertThat(adjustments(id).isEmpty()).isTrue();
    }

    @Test
    void givenNoSuchProposalOrNoAdminToken_thenProblemsAndNothingChanges() {
        String id = openSale(2, item("sku-a", 10));
        long proposalId = propose(OLIVIA_TOKEN, id, adjustment("sku-a", 5, "r")).json().path("id").asLong();

        assertProblem(approve(PETER_TOKEN, id, proposalId + 1000), 404, "PROPOSAL_NOT_FOUND");
        assertProblem(asAdmin("POST", proposals(id) + "/abc/approval", null), 404, "PROPOSAL_NOT_FOUND");
        assertProblem(asAdmin("GET", proposals(id) + "/0", null), 404, "PROPOSAL_NOT_FOUND");
        assertProblem(approve(PETER_TOKEN, newId(), proposalId), 404, "PROPOSAL_NOT_FOUND");
        assertProblem(post(proposals(id) + "/" + proposalId + "/approval", ""), 401, "UNAUTHORIZED");
        assertProblem(post(proposals(id) + "/" + proposalId + "/approval", "", buyerHeader(), signedIn("buyer-1")),
                401, "UNAUTHORIZED");
        assertProblem(get(proposals(id)), 401, "UNAUTHORIZED");
        assertThat(ledger(id, "sku-a")).containsExactly(10, 0, 0);
    }
}
