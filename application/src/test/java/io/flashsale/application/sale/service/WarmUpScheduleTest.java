package io.flashsale.application.sale.service;

import io.flashsale.application.reconciliation.model.RebuildOutcome;
import io.flashsale.application.sale.model.WarmUpPass;
import io.flashsale.application.sale.model.WarmUpRound;
import io.flashsale.domain.activity.ActivityId;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WarmUpScheduleTest {

    private static final ActivityId WARMED = new ActivityId("warmed");
    private static final ActivityId LOST = new ActivityId("lost-1");
    private static final ActivityId BROKEN = new ActivityId("lost-2");
    private static final ActivityId OTHER = new ActivityId("lost-3");
    private static final ActivityId ALSO_BROKEN = new ActivityId("lost-4");

    @Test
    void givenSalesTheHotStoreLost_whenThePassRuns_thenEachIsRebuiltWithItsOutcome() {
        WarmUpSchedule schedule = new WarmUpSchedule(() -> new WarmUpPass(List.of(WARMED), List.of(LOST, OTHER)),
                id -> id.equals(LOST) ? RebuildOutcome.REBUILT : RebuildOutcome.IN_PROGRESS);

        WarmUpRound round = schedule.runWarmUpSchedule();

        assertThat(round.warmedUp()).containsExactly(WARMED);
        assertThat(round.rebuilds()).containsExactly(new WarmUpRound.Rebuild(LOST, RebuildOutcome.REBUILT),
                new WarmUpRound.Rebuild(OTHER, RebuildOutcome.IN_PROGRESS));
        assertThat(round.failure()).isEmpty();
    }

    @Test
    void givenRebuildsThatFail_whenThePassRuns_thenTheOthersAreStillRebuiltAndTheFailuresReported() {
        List<ActivityId> tried = new ArrayList<>();
        WarmUpSchedule schedule = new WarmUpSchedule(
                () -> new WarmUpPass(List.of(), List.of(LOST, BROKEN, OTHER, ALSO_BROKEN)), id -> {
                    tried.add(id);
                    if (id.equals(BROKEN) || id.equals(ALSO_BROKEN)) {
                        throw new IllegalStateException("database down for " + id.value());
                    }
                    return RebuildOutcome.REBUILT;
                });

        WarmUpRound round = schedule.runWarmUpSchedule();

        assertThat(tried).containsExactly(LOST, BROKEN, OTHER, ALSO_BROKEN);
        assertThat(round.rebuilds()).extracting(WarmUpRound.Rebuild::activity).containsExactly(LOST, OTHER);
        assertThat(round.failure()).get().satisfies(failure -> {
            assertThat(failure).hasMessage("database down for lost-2");
            assertThat(failure.getSuppressed()).singleElement()
                    .satisfies(later -> assertThat(later).hasMessage("database down for lost-4"));
        });
    }

    @Test
    void givenAWarmUpThatFails_whenThePassRuns_thenItIsThrownAndNothingIsRebuilt() {
        List<ActivityId> tried = new ArrayList<>();
        WarmUpSchedule schedule = new WarmUpSchedule(() -> {
            throw new IllegalStateException("redis down");
        }, id -> {
            tried.add(id);
            return RebuildOutcome.REBUILT;
        });

        assertThatThrownBy(schedule::runWarmUpSchedule).hasMessage("redis down");
        assertThat(tried).isEmpty();
    }
}
