package io.flashsale.application.reconciliation.service;

import io.flashsale.application.reconciliation.model.RebuildOutcome;
import io.flashsale.application.reconciliation.model.RebuildRetryPass;
import io.flashsale.application.reconciliation.port.in.RebuildLedgerUseCase;
import io.flashsale.application.reconciliation.port.in.ReconcileActivityUseCase;
import io.flashsale.application.sale.model.ActivityArchivedException;
import io.flashsale.domain.activity.ActivityId;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.lenient;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
class RebuildRetryServiceTest {

    private static final ActivityId SALE = new ActivityId("sale-1");
    private static final Duration FIRST = Duration.ofMillis(200);
    private static final Duration LONGEST = Duration.ofSeconds(2);
    private static final Duration BOUND = Duration.ofMinutes(5);

    private Instant now = Instant.parse("2030-06-01T10:00:00Z");
    @Mock
    private Clock clock;
    @Mock
    private RebuildLedgerUseCase rebuilds;
    @Mock
    private ReconcileActivityUseCase reconciliations;

    @BeforeEach
    void clockReadsNow() {
        lenient().when(clock.instant()).thenAnswer(invocation -> now);
    }

    private void advance(Duration by) {
        now = now.plus(by);
    }

    private RebuildRetryService retries() {
        return new RebuildRetryService(rebuilds, reconciliations, clock, FIRST, LONGEST, BOUND, Runnable::run);
    }

    @Test
    void givenASaleAwaitingThePipeline_whenThePipelineDrains_thenTheNextDueRetryRebuildsItAndForgetsIt() {
        RebuildRetryService retries = retries();
        when(rebuilds.rebuild(SALE)).thenReturn(RebuildOutcome.AWAITING_PIPELINE, RebuildOutcome.AWAITING_PIPELINE,
                RebuildOutcome.REBUILT);
        retries.retryLater(SALE);

        assertThat(retries.retryDue().isEmpty()).as("not due before the first wait").isTrue();
        verifyNoInteractions(rebuilds);

        advance(FIRST);
        assertThat(retries.retryDue().waiting()).containsExactly(SALE);
        advance(FIRST);
        assertThat(retries.retryDue().isEmpty()).as("the wait doubled to 400 ms").isTrue();
        advance(FIRST);
        assertThat(retries.retryDue().waiting()).containsExactly(SALE);
        advance(FIRST.multipliedBy(4));
        RebuildRetryPass rebuilt = retries.retryDue();

        assertThat(rebuilt.loaded()).containsExactly(SALE);
        assertThat(retries.pendingCount()).isZero();
        advance(LONGEST);
        assertThat(retries.retryDue().isEmpty()).isTrue();
        verify(rebuilds, times(3)).rebuild(SALE);
        verifyNoInteractions(reconciliations);
    }

    @Test
    void givenTheWaitDoubling_whenItReachesTheLongest_thenItStaysThere() {
        RebuildRetryService retries = retries();
        when(rebuilds.rebuild(SALE)).thenReturn(RebuildOutcome.IN_PROGRESS);
        retries.retryLater(SALE);
        Duration wait = FIRST;
        for (int attempt = 0; attempt < 6; attempt++) {
            advance(wait);
            assertThat(retries.retryDue().waiting()).as("attempt %d after %s", attempt, wait).containsExactly(SALE);
            wait = wait.multipliedBy(2).compareTo(LONGEST) > 0 ? LONGEST : wait.multipliedBy(2);
        }
        advance(LONGEST.minusMillis(1));
        assertThat(retries.retryDue().isEmpty()).isTrue();
        advance(Duration.ofMillis(1));
        assertThat(retries.retryDue().waiting()).containsExactly(SALE);
    }

    /** Another instance rebuilt it meanwhile: this instance's database path may have sold since, so it is reconciled. */
    @Test
    void givenASaleAnotherInstanceRebuilt_whenRetried_thenItIsReconciledAndForgotten() {
        RebuildRetryService retries = retries();
        when(rebuilds.rebuild(SALE)).thenReturn(RebuildOutcome.ALREADY_LOADED);
        retries.retryLater(SALE);
        advance(FIRST);

        assertThat(retries.retryDue().loaded()).containsExactly(SALE);
        verify(reconciliations).reconcile(SALE);
        assertThat(retries.pendingCount()).isZero();
    }

    @Test
    void givenAStoreThatDoesNotAnswer_whenRetried_thenTheSaleWaitsLongerAndIsNotLost() {
        RebuildRetryService retries = retries();
        when(rebuilds.rebuild(SALE)).thenThrow(new IllegalStateException("Redis did not answer"))
                .thenReturn(RebuildOutcome.REBUILT);
        retries.retryLater(SALE);
        advance(FIRST);
        assertThat(retries.retryDue().waiting()).containsExactly(SALE);
        advance(FIRST.multipliedBy(2));

        assertThat(retries.retryDue().loaded()).containsExactly(SALE);
    }

    @Test
    void givenASaleStillNotRebuiltAtTheBound_whenRetried_thenItIsLeftToTheSchedule() {
        RebuildRetryService retries = retries();
        when(rebuilds.rebuild(SALE)).thenReturn(RebuildOutcome.AWAITING_PIPELINE);
        retries.retryLater(SALE);
        advance(BOUND);

        assertThat(retries.retryDue().leftToSchedule()).containsExactly(SALE);
        assertThat(retries.pendingCount()).isZero();
        advance(LONGEST);
        assertThat(retries.retryDue().isEmpty()).isTrue();
        verify(rebuilds, times(1)).rebuild(SALE);
    }

    @Test
    void givenASaleRememberedTwice_whenRetried_thenItIsAskedOnceAndKeepsItsBound() {
        RebuildRetryService retries = retries();
        when(rebuilds.rebuild(SALE)).thenReturn(RebuildOutcome.AWAITING_PIPELINE);
        retries.retryLater(SALE);
        advance(BOUND.minus(FIRST));
        retries.retryLater(SALE);
        advance(FIRST);

        assertThat(retries.retryDue().leftToSchedule()).containsExactly(SALE);
        verify(rebuilds, times(1)).rebuild(SALE);
    }

    @Test
    void givenASaleEndedOrArchived_whenRetried_thenItIsForgottenWithoutAReconciliation() {
        ActivityId archived = new ActivityId("sale-2");
        RebuildRetryService retries = retries();
        when(rebuilds.rebuild(SALE)).thenReturn(RebuildOutcome.ENDED);
        when(rebuilds.rebuild(archived)).thenThrow(new ActivityArchivedException(archived));
        retries.retryLater(SALE);
        retries.retryLater(archived);
        advance(FIRST);

        assertThat(retries.retryDue().loaded()).containsExactlyInAnyOrder(SALE, archived);
        assertThat(retries.pendingCount()).isZero();
        verify(reconciliations, never()).reconcile(SALE);
    }

    /** A big sale's rebuild or a slow reconciliation takes seconds: the other sales' retries do not queue behind it. */
    @Test
    void givenRetriesStillRunning_whenTheNextPassComes_thenNoneIsHandedOverTwiceAndEachIsReportedWhenItFinishes() {
        ActivityId other = new ActivityId("sale-2");
        List<Runnable> handedOver = new ArrayList<>();
        RebuildRetryService retries = new RebuildRetryService(rebuilds, reconciliations, clock, FIRST, LONGEST, BOUND,
                handedOver::add);
        when(rebuilds.rebuild(SALE)).thenReturn(RebuildOutcome.REBUILT);
        when(rebuilds.rebuild(other)).thenReturn(RebuildOutcome.AWAITING_PIPELINE);
        retries.retryLater(SALE);
        retries.retryLater(other);
        advance(FIRST);

        assertThat(retries.retryDue().isEmpty()).as("a pass does not wait for its retries").isTrue();
        assertThat(handedOver).hasSize(2);
        verifyNoInteractions(rebuilds);
        advance(LONGEST);
        assertThat(retries.retryDue().isEmpty()).isTrue();
        assertThat(handedOver).as("a sale being retried is not handed over again").hasSize(2);

        handedOver.get(0).run();
        RebuildRetryPass first = retries.retryDue();
        assertThat(handedOver).as("the other one is still running").hasSize(2);
        handedOver.get(1).run();
        RebuildRetryPass second = retries.retryDue();

        assertThat(List.of(first.loaded().size() + first.waiting().size(),
                second.loaded().size() + second.waiting().size())).as("one finished retry per pass").containsExactly(1, 1);
        assertThat(first.loaded().isEmpty() ? second.loaded() : first.loaded()).containsExactly(SALE);
        assertThat(first.waiting().isEmpty() ? second.waiting() : first.waiting()).containsExactly(other);
        assertThat(retries.isPending(other)).isTrue();
        assertThat(retries.isPending(SALE)).isFalse();
    }

    @Test
    void givenWorkersThatRefuseTheTask_whenRetried_thenTheSaleStaysRememberedForTheNextPass() {
        RebuildRetryService refusing = new RebuildRetryService(rebuilds, reconciliations, clock, FIRST, LONGEST, BOUND,
                task -> {
                    throw new RejectedExecutionException("shutting down");
                });
        refusing.retryLater(SALE);
        advance(FIRST);

        assertThat(refusing.retryDue().isEmpty()).isTrue();
        assertThat(refusing.isPending(SALE)).isTrue();
        verifyNoInteractions(rebuilds);
    }

    @Test
    void givenWaitsThatMakeNoSense_whenBuilt_thenRefused() {
        assertThatThrownBy(() -> new RebuildRetryService(rebuilds, reconciliations, clock, Duration.ZERO, LONGEST,
                BOUND, Runnable::run)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RebuildRetryService(rebuilds, reconciliations, clock, LONGEST, FIRST, BOUND,
                Runnable::run))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
