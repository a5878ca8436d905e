package io.flashsale.application.reconciliation.port.out;

import io.flashsale.domain.stock.AdjustmentProposal;

/** What the database of record did with an approval. */
public sealed interface ProposalApproval {

    /** This approval won: the adjustment was recorded (or refused, and then the proposal stays pending). */
    record Decided(AdjustmentProposal proposal, AdjustmentRecording recording) implements ProposalApproval {
    }

    /** Another decision or the expiry came first: nothing changed; the proposal as it now stands. */
    record NoLongerPending(AdjustmentProposal current) implements ProposalApproval {
    }
}
