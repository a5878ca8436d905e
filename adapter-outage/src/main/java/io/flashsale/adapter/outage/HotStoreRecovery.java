package io.flashsale.adapter.outage;

import io.flashsale.application.reconciliation.model.RebuildOutcome;
import io.flashsale.application.reconciliation.model.RebuildRetryPass;
import io.flashsale.application.reconciliation.port.in.RebuildLedgerUseCase;
import io.flashsale.application.reconciliation.port.in.ReconcileActivityUseCase;
import io.flashsale.application.reconciliation.port.in.RetryRebuildsUseCase;
import io.flashsale.application.sale.model.ActivityArchivedException;
import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.application.sale.model.SaleInSlicesException;
import io.flashsale.domain.activity.ActivityId;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * The way back to Redis, one pass per probe interval while the breaker is not CLOSED: when Redis answers a PING the
 * breaker half-opens (attempts still go to the database), the database path is paused and drained, every sale this
 * instance served is rebuilt from the database of record ({@link RebuildLedgerUseCase}: totals, sold units and the
 * buyers' purchases, the database path's orders included) or, where Redis kept its ledger, reconciled with it, and only
 * then does the breaker close. Anything failing on the way opens the breaker again; the next pass tries again. A sale
 * whose rebuild cannot finish yet (its reservations are still in the pipeline, another instance rebuilds it) answers
 * NOT_READY and is handed to {@link RetryRebuildsUseCase}, which {@link #retryDueRebuilds()} asks again within seconds
 * once the breaker is closed (ADR 62); it does not hold the breaker open for the others.
 * <p>
 * The pause costs buyers of this instance 503 DEGRADED for as long as the rebuild takes (one small read per sale, and
 * a reconciliation of each sale Redis kept). The sales are brought back a few at a time on {@code workers}, not one
 * after the other: an instance that served many sales since it started (every one is brought back) would otherwise
 * hold its buyers off for minutes (docs/reliability.md, defect 8).
 * <p>
 * Each {@link #run()} does all it can: a loop calls it again at its own interval, never at once.
 */
public final class HotStoreRecovery implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(HotStoreRecovery.class);
    private static final long DRAIN_POLL_MILLIS = 5;
    static final int PROBES_TO_OPEN = 2;

    private final FailoverStockReservations failover;
    private final Runnable probe;
    private final RebuildLedgerUseCase rebuilds;
    private final ReconcileActivityUseCase reconciliations;
    private final RetryRebuildsUseCase retries;
    private final Duration drainTimeout;
    private final Executor workers;
    private int failedProbes;

    /**
     * @param probe   throws while Redis does not answer
     * @param workers where the sales are brought back, as many at once as it has threads; the pass waits for all
     */
    public HotStoreRecovery(FailoverStockReservations failover, Runnable probe, RebuildLedgerUseCase rebuilds,
                            ReconcileActivityUseCase reconciliations, RetryRebuildsUseCase retries,
                            Duration drainTimeout, Executor workers) {
        this.failover = failover;
        this.probe = probe;
        this.rebuilds = rebuilds;
        this.reconciliations = reconciliations;
        this.retries = retries;
        this.drainTimeout = drainTimeout;
        this.workers = workers;
    }

    @Override
    public void run() {
        CircuitBreaker breaker = failover.breaker();
        if (breaker.getState() == CircuitBreaker.State.CLOSED) {
            watchClosed(breaker);
            return;
        }
        try {
            probe.run();
        } catch (RuntimeException stillDown) {
            return;
        }
        // Paused before half-open: whoever sees the breaker half-open can count on no attempt entering the database
        // path from then on (one that entered earlier is waited for below).
        failover.pause();
        try {
            if (breaker.getState() != CircuitBreaker.State.HALF_OPEN) {
                breaker.transitionToHalfOpenState();
            }
            if (!drained()) {
                LOG.warn("recovery postponed: attempts in the database path did not finish within {}", drainTimeout);
                breaker.transitionToOpenState();
                return;
            }
            bringBackAll(failover.activities());
            breaker.transitionToClosedState();
            LOG.info("Redis is back: ledgers rebuilt from the database, the breaker is closed");
        } catch (RuntimeException failed) {
            LOG.warn("recovery failed, the database keeps deciding: {}", failed.toString());
            breaker.transitionToOpenState();
        } finally {
            failover.resume();
        }
    }

    /**
     * The retries of the rebuilds the recovery left (ADR 62), while the breaker is closed: an open or half-open one
     * rebuilds every sale of this instance at its own next pass anyway.
     */
    public void retryDueRebuilds() {
        if (failover.breaker().getState() != CircuitBreaker.State.CLOSED) {
            return;
        }
        RebuildRetryPass pass = retries.retryDue();
        if (!pass.loaded().isEmpty()) {
            LOG.info("sales rebuilt by the recovery's retries: {}", pass.loaded());
        }
        if (!pass.leftToSchedule().isEmpty()) {
            LOG.warn("sales still not rebuilt at the retries' bound, left to the reconciliation schedule: {}",
                    pass.leftToSchedule());
        }
    }

    /**
     * A closed breaker is opened by failed reservations, and also by {@value #PROBES_TO_OPEN} failed probes in a row:
     * a service that starts while Redis is down, or a quiet sale, is on the database path before a buyer meets a 503.
     */
    private void watchClosed(CircuitBreaker breaker) {
        try {
            probe.run();
            failedProbes = 0;
        } catch (RuntimeException down) {
            if (++failedProbes >= PROBES_TO_OPEN && breaker.getState() == CircuitBreaker.State.CLOSED) {
                LOG.warn("Redis does not answer ({}): the database decides reservations", down.toString());
                breaker.transitionToOpenState();
                failedProbes = 0;
            }
        }
    }

    private boolean drained() {
        long deadline = System.nanoTime() + drainTimeout.toNanos();
        while (failover.inDatabasePath() > 0) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            try {
                Thread.sleep(DRAIN_POLL_MILLIS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /** Returns once every sale is back or handed to the retries; throws the first failure, after all have ended. */
    private void bringBackAll(Set<ActivityId> sales) {
        List<CompletableFuture<Void>> each = sales.stream()
                .map(activityId -> CompletableFuture.runAsync(() -> bringBack(activityId), workers))
                .toList();
        try {
            CompletableFuture.allOf(each.toArray(CompletableFuture[]::new)).join();
        } catch (CompletionException failed) {
            throw failed.getCause() instanceof RuntimeException cause ? cause : failed;
        }
    }

    private void bringBack(ActivityId activityId) {
        try {
            RebuildOutcome outcome = rebuilds.rebuild(activityId);
            switch (outcome) {
                case REBUILT -> LOG.info("sale {} rebuilt in Redis from the database", activityId);
                // Redis kept the sale (a short cut, a persisted restart) or another instance rebuilt it: the
                // database path may have sold since, so the ledger is brought to the database's figures.
                case ALREADY_LOADED -> reconciliations.reconcile(activityId);
                case ENDED -> failover.forget(activityId);
                // Not loadable yet: it answers NOT_READY, the safe answer, and is asked again soon, not in minutes.
                case AWAITING_PIPELINE, IN_PROGRESS -> {
                    LOG.info("sale {} not rebuilt yet ({}): retried shortly", activityId, outcome);
                    retries.retryLater(activityId);
                }
            }
        } catch (ActivityNotFoundException | ActivityArchivedException gone) {
            failover.forget(activityId);
        } catch (SaleInSlicesException notRebuiltWhole) {
            // The stores have no slices to rebuild it by (ADR 111): never loaded as one ledger.
            LOG.warn("sale {} is in slices and is not rebuilt after the outage: {}", activityId,
                    notRebuiltWhole.getMessage());
            failover.forget(activityId);
        }
    }
}
