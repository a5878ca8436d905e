package io.flashsale.adapter.web;

import java.util.List;

/** Stock adjustment proposals of the activity, oldest first. */
public record AdjustmentProposalsResponse(String activityId, List<AdjustmentProposalResponse> proposals) {
}
