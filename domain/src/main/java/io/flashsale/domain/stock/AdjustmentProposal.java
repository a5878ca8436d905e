package io.flashsale.domain.stock;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.shared.Require;

import java.time.Instant;
import java.util.Objects;

/**
 * A stock adjustment one operator asked for, which changes nothing until a different operator approves it (ADR 84).
 * It closes once: approved (then {@code adjustmentId} names the adjustment it became), rejected by another operator,
 * or withdrawn by its proposer. Left pending past {@code expiresAt}, it can no longer be approved.
 *
 * @param decidedBy    who approved, rejected or withdrew it; null while pending
 * @param adjustmentId the applied adjustment; null unless approved
 */
public record AdjustmentProposal(long id, ActivityId activityId, SkuId skuId, long delta, String reason,
                                 String proposedBy, Instant proposedAt, Instant expiresAt, ProposalStatus status,
                                 String decidedBy, Instant decidedAt, Long adjustmentId) {

    public AdjustmentProposal {
        Require.present(activityId, "activityId");
        Require.present(skuId, "skuId");
        StockAdjustment.requireDelta(delta);
        StockAdjustment.requireReason(reason);
        StockAdjustment.requireOperator(proposedBy);
        Require.present(proposedAt, "proposedAt");
        Require.present(expiresAt, "expiresAt");
        if (!expiresAt.isAfter(proposedAt)) {
            throw new IllegalArgumentException("a proposal must expire after it was made: " + expiresAt);
        }
        Objects.requireNonNull(status, "status");
        if (status == ProposalStatus.EXPIRED) {
            throw new IllegalArgumentException("EXPIRED is a pending proposal seen after its expiry, never stored");
        }
        if ((status == ProposalStatus.PENDING) != (decidedBy == null && decidedAt == null)) {
            throw new IllegalArgumentException("a proposal is decided exactly when it is no longer pending: " + status);
        }
        if ((status == ProposalStatus.APPROVED) != (adjustmentId != null)) {
            throw new IllegalArgumentException("exactly an approved proposal names its adjustment: " + status);
        }
        if (status == ProposalStatus.WITHDRAWN && !proposedBy.equals(decidedBy)
                || (status == ProposalStatus.APPROVED || status == ProposalStatus.REJECTED)
                && proposedBy.equals(decidedBy)) {
            throw new IllegalArgumentException(status + " by " + decidedBy + " of a proposal by " + proposedBy);
        }
    }

    /** A new proposal, pending until {@code proposedAt + ttl}. */
    public static AdjustmentProposal pending(long id, ActivityId activityId, SkuId skuId, long delta, String reason,
                                             String proposedBy, Instant proposedAt, Instant expiresAt) {
        return new AdjustmentProposal(id, activityId, skuId, delta, reason, proposedBy, proposedAt, expiresAt,
                ProposalStatus.PENDING, null, null, null);
    }

    /** What it is at {@code now}: a pending proposal past its expiry is {@link ProposalStatus#EXPIRED}. */
    public ProposalStatus statusAt(Instant now) {
        return status == ProposalStatus.PENDING && !now.isBefore(expiresAt) ? ProposalStatus.EXPIRED : status;
    }

    /** Whether {@code operator} may approve it at {@code now}: only someone else, only while it is pending. */
    public ProposalDecision approvalBy(String operator, Instant now) {
        ProposalStatus current = statusAt(now);
        if (current == ProposalStatus.EXPIRED) {
            return new ProposalDecision.Expired(expiresAt);
        }
        if (current != ProposalStatus.PENDING) {
            return new ProposalDecision.Closed(current);
        }
        if (proposedBy.equals(operator)) {
            return new ProposalDecision.SameOperator(operator);
        }
        return new ProposalDecision.Allowed(ProposalStatus.APPROVED);
    }

    /**
     * Whether {@code operator} may close it unapplied: its proposer withdraws it, anyone else rejects it. An expired
     * proposal may still be closed, so that the list says who looked at it last.
     */
    public ProposalDecision rejectionBy(String operator) {
        if (status != ProposalStatus.PENDING) {
            return new ProposalDecision.Closed(status);
        }
        return new ProposalDecision.Allowed(proposedBy.equals(operator)
                ? ProposalStatus.WITHDRAWN : ProposalStatus.REJECTED);
    }

    /** This proposal closed with {@code to} by {@code operator}. */
    public AdjustmentProposal closed(ProposalStatus to, String operator, Instant at, Long adjustment) {
        return new AdjustmentProposal(id, activityId, skuId, delta, reason, proposedBy, proposedAt, expiresAt, to,
                StockAdjustment.requireOperator(operator), at, adjustment);
    }
}
