package io.flashsale.domain.stock;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AdjustmentProposalTest {

    private static final Instant PROPOSED = Instant.parse("2030-06-01T12:00:00Z");
    private static final Instant EXPIRES = PROPOSED.plusSeconds(1800);

    private static AdjustmentProposal byOlivia() {
        return AdjustmentProposal.pending(1, new ActivityId("flash-1"), new SkuId("a"), 5, "found a pallet", "olivia",
                PROPOSED, EXPIRES);
    }

    @Test
    void givenAPendingProposal_thenOnlyAnotherOperatorMayApproveIt_andOnlyBeforeItExpires() {
        AdjustmentProposal proposal = byOlivia();

        assertThat(proposal.approvalBy("olivia", PROPOSED)).isEqualTo(new ProposalDecision.SameOperator("olivia"));
        assertThat(proposal.approvalBy("peter", EXPIRES.minusMillis(1)))
                .isEqualTo(new ProposalDecision.Allowed(ProposalStatus.APPROVED));
        assertThat(proposal.approvalBy("peter", EXPIRES)).isEqualTo(new ProposalDecision.Expired(EXPIRES));
        assertThat(proposal.statusAt(EXPIRES.minusMillis(1))).isEqualTo(ProposalStatus.PENDING);
        assertThat(proposal.statusAt(EXPIRES)).isEqualTo(ProposalStatus.EXPIRED);
    }

    @Test
    void givenAPendingProposal_thenItsProposerWithdrawsIt_andAnyoneElseRejectsIt_evenAfterItExpired() {
        AdjustmentProposal proposal = byOlivia();

        assertThat(proposal.rejectionBy("olivia")).isEqualTo(new ProposalDecision.Allowed(ProposalStatus.WITHDRAWN));
        assertThat(proposal.rejectionBy("peter")).isEqualTo(new ProposalDecision.Allowed(ProposalStatus.REJECTED));
    }

    @Test
    void givenAClosedProposal_thenNothingMoreIsAllowed_andItNeverReadsAsExpired() {
        AdjustmentProposal approved = byOlivia().closed(ProposalStatus.APPROVED, "peter", PROPOSED.plusSeconds(5), 41L);

        assertThat(approved.approvalBy("quinn", PROPOSED)).isEqualTo(new ProposalDecision.Closed(ProposalStatus.APPROVED));
        assertThat(approved.rejectionBy("peter")).isEqualTo(new ProposalDecision.Closed(ProposalStatus.APPROVED));
        assertThat(approved.statusAt(EXPIRES.plusSeconds(1))).isEqualTo(ProposalStatus.APPROVED);
    }

    @Test
    void theRecordRefusesStatesThatBreakTheFourEyesRule() {
        AdjustmentProposal proposal = byOlivia();

        assertThatThrownBy(() -> proposal.closed(ProposalStatus.APPROVED, "olivia", PROPOSED, 41L))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> proposal.closed(ProposalStatus.REJECTED, "olivia", PROPOSED, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> proposal.closed(ProposalStatus.WITHDRAWN, "peter", PROPOSED, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> proposal.closed(ProposalStatus.APPROVED, "peter", PROPOSED, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> proposal.closed(ProposalStatus.EXPIRED, "peter", PROPOSED, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AdjustmentProposal.pending(1, proposal.activityId(), proposal.skuId(), 5, "r",
                "olivia", PROPOSED, PROPOSED)).isInstanceOf(IllegalArgumentException.class);
    }
}
