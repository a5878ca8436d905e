package io.flashsale.adapter.web;

import io.flashsale.adapter.web.security.AdminOnly;
import io.flashsale.adapter.web.security.AdminOperator;
import io.flashsale.application.reconciliation.port.in.ListStockAdjustmentsUseCase;
import io.flashsale.application.reconciliation.port.in.ProposeStockAdjustmentUseCase;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.shared.InvalidValueException;
import io.flashsale.domain.stock.AdjustmentProposal;
import jakarta.validation.Valid;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriComponentsBuilder;

import java.time.Clock;

/**
 * Audited changes of a SKU's total: the only way a total changes once a sale exists. A change is proposed here and
 * applied only once a different operator approves it ({@link AdjustmentProposalController}, ADR 84).
 */
@RestController
@RequestMapping("/api/v1/activities/{activityId}/stock-adjustments")
public class StockAdjustmentController {

    private final ProposeStockAdjustmentUseCase propose;
    private final ListStockAdjustmentsUseCase adjustments;
    private final Clock clock;

    public StockAdjustmentController(ProposeStockAdjustmentUseCase propose, ListStockAdjustmentsUseCase adjustments,
                                     Clock clock) {
        this.propose = propose;
        this.adjustments = adjustments;
        this.clock = clock;
    }

    /**
     * 202: proposed in the authenticated operator's name; nothing changes until a different operator approves it at
     * the proposal's {@code Location} before it expires.
     */
    @AdminOnly
    @PostMapping
    public ResponseEntity<AdjustmentProposalResponse> propose(@PathVariable String activityId,
                                                              @Valid @RequestBody StockAdjustmentRequest request,
                                                              @AdminOperator String operator) {
        ActivityId id = PathIds.activity(activityId);
        if (request.delta() == 0) {
            throw new InvalidValueException("delta", "must not be 0");
        }
        AdjustmentProposal proposal = propose.propose(id, new SkuId(request.skuId()), request.delta(),
                request.reason(), operator);
        return ResponseEntity.accepted()
                .location(UriComponentsBuilder.fromPath(AdjustmentProposalController.PATH + "/{proposal}")
                        .build(id.value(), proposal.id()))
                .body(AdjustmentProposalResponse.of(proposal, clock.instant()));
    }

    /** The applied adjustments, oldest first. */
    @AdminOnly
    @GetMapping
    public StockAdjustmentsResponse list(@PathVariable String activityId) {
        ActivityId id = PathIds.activity(activityId);
        return new StockAdjustmentsResponse(id.value(),
                adjustments.list(id).stream().map(StockAdjustmentResponse::of).toList());
    }
}
