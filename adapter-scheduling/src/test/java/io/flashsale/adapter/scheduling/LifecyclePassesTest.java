package io.flashsale.adapter.scheduling;

import io.flashsale.application.reconciliation.model.RebuildOutcome;
import io.flashsale.application.reconciliation.model.ReconciliationPass;
import io.flashsale.application.sale.model.WarmUpRound;
import io.flashsale.domain.activity.ActivityId;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LifecyclePassesTest {

    @Test
    void givenAnExpiryPassThatFilledItsBatch_whenRun_thenItAsksForTheNextPassAtOnce() {
        List<Integer> asked = new ArrayList<>();

        boolean full = LifecyclePasses.expiry(max -> {
            asked.add(max);
            return max;
        }, 200).run();
        boolean partial = LifecyclePasses.expiry(max -> 3, 200).run();
        boolean empty = LifecyclePasses.expiry(max -> 0, 200).run();

        assertThat(asked).containsExactly(200);
        assertThat(full).isTrue();
        assertThat(partial).isFalse();
        assertThat(empty).isFalse();
    }

    @Test
    void givenARestoreSweepThatFilledItsBatch_whenRun_thenItAsksForTheNextPassAtOnce() {
        assertThat(LifecyclePasses.restoreSweep(max -> max, 50).run()).isTrue();
        assertThat(LifecyclePasses.restoreSweep(max -> 49, 50).run()).isFalse();
    }

    @Test
    void givenWarmUpsAndArchives_whenRun_thenTheyWaitForTheirIntervalWhateverTheyDid() {
        ActivityId sale = new ActivityId("sale-1");

        assertThat(LifecyclePasses.warmUps(() -> new WarmUpRound(List.of(sale), List.of(), Optional.empty())).run())
                .isFalse();
        assertThat(LifecyclePasses.warmUps(() -> new WarmUpRound(List.of(),
                List.of(new WarmUpRound.Rebuild(sale, RebuildOutcome.REBUILT)), Optional.empty())).run()).isFalse();
        assertThat(LifecyclePasses.archives(() -> List.of(sale)).run()).isFalse();
    }

    @Test
    void givenATransferSweep_whenRun_thenItWaitsForItsIntervalAndFailuresReachTheLoop() {
        int[] passes = {0};

        assertThat(LifecyclePasses.transferSweep(() -> ++passes[0]).run()).isFalse();
        assertThat(LifecyclePasses.transferSweep(() -> 0).run()).isFalse();
        assertThat(passes[0]).isEqualTo(1);
        assertThatThrownBy(() -> LifecyclePasses.transferSweep(() -> {
            throw new IllegalStateException("database down");
        }).run()).hasMessage("database down");
    }

    @Test
    void givenASliceRebalance_whenRun_thenItWaitsForItsIntervalAndFailuresReachTheLoop() {
        int[] looks = {0};

        assertThat(LifecyclePasses.sliceRebalance(() -> ++looks[0]).run()).isFalse();
        assertThat(LifecyclePasses.sliceRebalance(() -> 0).run()).isFalse();
        assertThat(looks[0]).isEqualTo(1);
        assertThatThrownBy(() -> LifecyclePasses.sliceRebalance(() -> {
            throw new IllegalStateException("redis down");
        }).run()).hasMessage("redis down");
    }

    @Test
    void givenAFailingUseCase_whenRun_thenTheFailureReachesTheLoop() {
        Pass failing = LifecyclePasses.expiry(max -> {
            throw new IllegalStateException("database down");
        }, 200);

        assertThatThrownBy(failing::run).hasMessage("database down");
    }

    @Test
    void givenNoRealBatch_whenBuilt_thenRefused() {
        assertThatThrownBy(() -> LifecyclePasses.expiry(max -> 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LifecyclePasses.restoreSweep(max -> 0, -1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void givenARebuildThatFailed_whenTheWarmUpPassRuns_thenTheFailureReachesTheLoop() {
        ActivityId rebuilt = new ActivityId("lost-1");
        Pass pass = LifecyclePasses.warmUps(() -> new WarmUpRound(List.of(),
                List.of(new WarmUpRound.Rebuild(rebuilt, RebuildOutcome.REBUILT)),
                Optional.of(new IllegalStateException("database down"))));

        assertThatThrownBy(pass::run).hasMessage("database down");
    }

    @Test
    void givenAReconciliationPass_whenRun_thenItWaitsForItsIntervalAndFailuresReachTheLoop() {
        assertThat(LifecyclePasses.reconciliations(() -> new ReconciliationPass(List.of(), List.of(), List.of())).run())
                .isFalse();
        Pass failing = LifecyclePasses.reconciliations(() -> {
            throw new IllegalStateException("redis down");
        });

        assertThatThrownBy(failing::run).hasMessage("redis down");
    }
}
