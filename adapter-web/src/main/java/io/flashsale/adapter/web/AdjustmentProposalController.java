package io.flashsale.adapter.web;

import io.flashsale.adapter.web.security.AdminOnly;
import io.flashsale.adapter.web.security.AdminOperator;
import io.flashsale.application.reconciliation.model.ProposalApprovalResult;
import io.flashsale.application.reconciliation.model.ProposalRejectionResult;
import io.flashsale.application.reconciliation.model.StockAdjustmentResult;
import io.flashsale.application.reconciliation.port.in.DecideAdjustmentProposalUseCase;
import io.flashsale.application.reconciliation.port.in.ListAdjustmentProposalsUseCase;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.stock.AdjustmentProposal;
import io.flashsale.domain.stock.ProposalDecision;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.time.Clock;
import java.util.Locale;

/**
 * Stock adjustment proposals (ADR 84): listed, approved by an operator other than the proposer (which applies the
 * adjustment once and reconciles the sale), or rejected (withdrawn, when the proposer does it). The operator is the
 * one whose admin token authenticated the call.
 */
@RestController
@RequestMapping(AdjustmentProposalController.PATH)
public class AdjustmentProposalController {

    static final String PATH = "/api/v1/activities/{activityId}/stock-adjustments/proposals";

    private final ListAdjustmentProposalsUseCase proposals;
    private final DecideAdjustmentProposalUseCase decide;
    private final Clock clock;

    public AdjustmentProposalController(ListAdjustmentProposalsUseCase proposals,
                                        DecideAdjustmentProposalUseCase decide, Clock clock) {
        this.proposals = proposals;
        this.decide = decide;
        this.clock = clock;
    }

    /** Oldest first; with {@code pending=true} only those that may still be approved. */
    @AdminOnly
    @GetMapping
    public AdjustmentProposalsResponse list(@PathVariable String activityId,
                                            @RequestParam(name = "pending", defaultValue = "false") boolean pending) {
        ActivityId id = PathIds.activity(activityId);
        var now = clock.instant();
        return new AdjustmentProposalsResponse(id.value(), proposals.proposals(id, pending).stream()
                .map(proposal -> AdjustmentProposalResponse.of(proposal, now)).toList());
    }

    @AdminOnly
    @GetMapping("/{proposalId}")
    public AdjustmentProposalResponse one(@PathVariable String activityId, @PathVariable String proposalId) {
        return AdjustmentProposalResponse.of(proposals.proposal(PathIds.activity(activityId), idOf(proposalId)),
                clock.instant());
    }

    /**
     * 200: approved and applied once (the database of record, then Redis, then the SKU reconciled), then the whole
     * sale reconciled. 403 {@code SAME_OPERATOR}, 409 {@code PROPOSAL_EXPIRED} or {@code PROPOSAL_CLOSED}, or the
     * stock's refusal ({@code STOCK_BELOW_SOLD}, {@code STOCK_ABOVE_MAXIMUM}; the proposal stays pending): nothing
     * changed.
     */
    @AdminOnly
    @PostMapping("/{proposalId}/approval")
    public ResponseEntity<?> approve(@PathVariable String activityId, @PathVariable String proposalId,
                                     @AdminOperator String operator) {
        ActivityId id = PathIds.activity(activityId);
        return switch (decide.approve(id, idOf(proposalId), operator)) {
            case ProposalApprovalResult.Approved approved ->
                    ResponseEntity.ok(ProposalApprovedResponse.of(approved, clock.instant()));
            case ProposalApprovalResult.Refused refused -> refused(refused.proposal(), refused.why());
            case ProposalApprovalResult.StockRefused stock -> switch (stock.refusal()) {
                case StockAdjustmentResult.BelowSold below -> StockRefusals.belowSold(below);
                case StockAdjustmentResult.AboveMaximum above -> StockRefusals.aboveMaximum(above);
                case StockAdjustmentResult.Adjusted adjusted ->
                        throw new IllegalStateException("an applied adjustment is no refusal");
            };
        };
    }

    /** 200: closed unapplied (WITHDRAWN when the proposer does it, else REJECTED); 409 {@code PROPOSAL_CLOSED}. */
    @AdminOnly
    @PostMapping("/{proposalId}/rejection")
    public ResponseEntity<?> reject(@PathVariable String activityId, @PathVariable String proposalId,
                                    @AdminOperator String operator) {
        return switch (decide.reject(PathIds.activity(activityId), idOf(proposalId), operator)) {
            case ProposalRejectionResult.Closed closed ->
                    ResponseEntity.ok(AdjustmentProposalResponse.of(closed.proposal(), clock.instant()));
            case ProposalRejectionResult.Refused refused -> refused(refused.proposal(), refused.why());
        };
    }

    private static ResponseEntity<ProblemDetail> refused(AdjustmentProposal proposal, ProposalDecision why) {
        ProblemDetail problem = switch (why) {
            case ProposalDecision.SameOperator same -> Problems.of(ProblemCode.SAME_OPERATOR,
                    "a stock adjustment needs a second operator: its proposer cannot approve it");
            case ProposalDecision.Expired expired -> {
                ProblemDetail detail = Problems.of(ProblemCode.PROPOSAL_EXPIRED,
                        "the proposal expired before it was approved; propose it again");
                detail.setProperty("expiresAt", expired.expiresAt().toString());
                yield detail;
            }
            case ProposalDecision.Closed closed -> {
                ProblemDetail detail = Problems.of(ProblemCode.PROPOSAL_CLOSED,
                        "the proposal was " + closed.status().name().toLowerCase(Locale.ROOT) + " already");
                detail.setProperty("proposalStatus", closed.status().name());
                yield detail;
            }
            case ProposalDecision.Allowed allowed -> throw new IllegalStateException("an allowed decision is no refusal");
        };
        problem.setProperty("proposalId", proposal.id());
        return Problems.response(problem);
    }

    /** Ids are positive numbers; anything else names no proposal. */
    private static long idOf(String proposalId) {
        try {
            long id = Long.parseLong(proposalId);
            if (id > 0) {
                return id;
            }
        } catch (NumberFormatException ignored) {
            // answered below
        }
        throw new NotFoundException(ProblemCode.PROPOSAL_NOT_FOUND, "the activity has no such stock adjustment proposal");
    }
}
