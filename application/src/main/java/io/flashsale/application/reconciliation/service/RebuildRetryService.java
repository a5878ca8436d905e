package io.flashsale.application.reconciliation.service;

import io.flashsale.application.reconciliation.model.RebuildOutcome;
import io.flashsale.application.reconciliation.model.RebuildRetryPass;
import io.flashsale.application.reconciliation.port.in.RebuildLedgerUseCase;
import io.flashsale.application.reconciliation.port.in.ReconcileActivityUseCase;
import io.flashsale.application.reconciliation.port.in.RetryRebuildsUseCase;
import io.flashsale.application.sale.model.ActivityArchivedException;
import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.application.sale.model.SaleInSlicesException;
import io.flashsale.domain.activity.ActivityId;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * The sales a recovery left not ready (ADR 62), retried with a backoff that doubles from {@code firstWait} up to
 * {@code longestWait}, until rebuilt or for {@code bound} after they were remembered. Each retry is the rebuild itself
 * ({@link RebuildLedgerUseCase}): it still waits for the pipeline (ADR 30) and runs on one instance at a time for a
 * sale, so a retry never loads the totals over reservations in flight. A sale found loaded by another instance is
 * reconciled, as the recovery does: this instance's database path may have sold since that rebuild read MySQL.
 * <p>
 * Each due sale is retried as its own task on {@code workers}, and a pass does not wait for them: a sale whose rebuild
 * or reconciliation takes seconds (a big sale, a busy database) holds up neither the others nor the next pass. A sale
 * still being retried is not handed over again. A pass reports the retries that finished since the last one.
 */
public final class RebuildRetryService implements RetryRebuildsUseCase {

    private final RebuildLedgerUseCase rebuilds;
    private final ReconcileActivityUseCase reconciliations;
    private final Clock clock;
    private final Duration firstWait;
    private final Duration longestWait;
    private final Duration bound;
    private final Executor workers;
    private final Map<ActivityId, Pending> pending = new ConcurrentHashMap<>();
    private final Set<ActivityId> running = ConcurrentHashMap.newKeySet();
    private final Queue<Finished> finished = new ConcurrentLinkedQueue<>();

    public RebuildRetryService(RebuildLedgerUseCase rebuilds, ReconcileActivityUseCase reconciliations, Clock clock,
                               Duration firstWait, Duration longestWait, Duration bound, Executor workers) {
        this.rebuilds = Objects.requireNonNull(rebuilds, "rebuilds");
        this.reconciliations = Objects.requireNonNull(reconciliations, "reconciliations");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.workers = Objects.requireNonNull(workers, "workers");
        if (!firstWait.isPositive() || longestWait.compareTo(firstWait) < 0 || !bound.isPositive()) {
            throw new IllegalArgumentException("the waits must be positive, the longest no shorter than the first, "
                    + "and the bound positive");
        }
        this.firstWait = firstWait;
        this.longestWait = longestWait;
        this.bound = bound;
    }

    @Override
    public void retryLater(ActivityId activityId) {
        Instant now = clock.instant();
        pending.putIfAbsent(activityId, new Pending(now.plus(bound), now.plus(firstWait), firstWait));
    }

    @Override
    public RebuildRetryPass retryDue() {
        Instant now = clock.instant();
        for (Map.Entry<ActivityId, Pending> entry : List.copyOf(pending.entrySet())) {
            ActivityId activityId = entry.getKey();
            Pending due = entry.getValue();
            if (now.isBefore(due.nextAt()) || !running.add(activityId)) {
                continue;
            }
            try {
                workers.execute(() -> retryOnce(activityId, due));
            } catch (RejectedExecutionException shuttingDown) {
                running.remove(activityId);
            }
        }
        return drainFinished();
    }

    private void retryOnce(ActivityId activityId, Pending due) {
        try {
            boolean done = retry(activityId);
            Instant now = clock.instant();
            if (done) {
                pending.remove(activityId, due);
                finished.add(new Finished(activityId, Result.LOADED));
            } else if (!now.isBefore(due.giveUpAt())) {
                pending.remove(activityId, due);
                finished.add(new Finished(activityId, Result.LEFT_TO_SCHEDULE));
            } else {
                pending.replace(activityId, due, due.waitLonger(now, longestWait));
                finished.add(new Finished(activityId, Result.WAITING));
            }
        } finally {
            running.remove(activityId);
        }
    }

    private RebuildRetryPass drainFinished() {
        List<ActivityId> loaded = new ArrayList<>();
        List<ActivityId> waiting = new ArrayList<>();
        List<ActivityId> leftToSchedule = new ArrayList<>();
        for (Finished done = finished.poll(); done != null; done = finished.poll()) {
            switch (done.result()) {
                case LOADED -> loaded.add(done.activityId());
                case WAITING -> waiting.add(done.activityId());
                case LEFT_TO_SCHEDULE -> leftToSchedule.add(done.activityId());
            }
        }
        return new RebuildRetryPass(loaded, waiting, leftToSchedule);
    }

    /** Whether the sale needs no more retries (loaded, ended or gone); a store that did not answer is a retry. */
    private boolean retry(ActivityId activityId) {
        try {
            RebuildOutcome outcome = rebuilds.rebuild(activityId);
            return switch (outcome) {
                case REBUILT, ENDED -> true;
                case ALREADY_LOADED -> {
                    reconciliations.reconcile(activityId);
                    yield true;
                }
                case IN_PROGRESS, AWAITING_PIPELINE -> false;
            };
        } catch (ActivityNotFoundException | ActivityArchivedException | SaleInSlicesException notRebuilt) {
            // Gone, or a sale in slices where the stores have no slices to rebuild: retrying changes nothing.
            return true;
        } catch (RuntimeException notNow) {
            return false;
        }
    }

    /** Whether the sale is remembered and not rebuilt yet. */
    public boolean isPending(ActivityId activityId) {
        return pending.containsKey(activityId);
    }

    /** Sales remembered and not rebuilt yet. */
    public int pendingCount() {
        return pending.size();
    }

    private enum Result { LOADED, WAITING, LEFT_TO_SCHEDULE }

    private record Finished(ActivityId activityId, Result result) {
    }

    private record Pending(Instant giveUpAt, Instant nextAt, Duration backoff) {

        Pending waitLonger(Instant now, Duration longest) {
            Duration longer = backoff.multipliedBy(2);
            Duration next = longer.compareTo(longest) > 0 ? longest : longer;
            return new Pending(giveUpAt, now.plus(next), next);
        }
    }
}
