package io.flashsale.adapter.scheduling;

import io.flashsale.application.order.model.DeadLetterPass;
import io.flashsale.application.order.port.in.CompletePendingRestoresUseCase;
import io.flashsale.application.order.port.in.ExpireUnpaidOrdersUseCase;
import io.flashsale.application.order.port.in.ReleaseDeadLettersUseCase;
import io.flashsale.application.reconciliation.model.ReconciliationPass;
import io.flashsale.application.reconciliation.port.in.ScheduleReconciliationsUseCase;
import io.flashsale.application.sale.model.WarmUpRound;
import io.flashsale.application.sale.port.in.RunWarmUpScheduleUseCase;
import io.flashsale.application.sale.port.in.ScheduleArchivesUseCase;
import io.flashsale.application.slice.port.in.FinishTransfersUseCase;
import io.flashsale.application.slice.port.in.RebalanceSlicesUseCase;
import io.flashsale.domain.activity.ActivityId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/** The sale lifecycle's background jobs as passes of a {@link PeriodicLoop}, each saying what it did in the log. */
public final class LifecyclePasses {

    private static final Logger LOG = LoggerFactory.getLogger(LifecyclePasses.class);

    private LifecyclePasses() {
    }

    /** Unpaid orders past their deadline become EXPIRED and give their units back, {@code batch} per pass. */
    public static Pass expiry(ExpireUnpaidOrdersUseCase expiry, int batch) {
        requirePositive(batch);
        return () -> {
            int expired = expiry.expireDue(batch);
            if (expired > 0) {
                LOG.info("Expired {} unpaid order(s)", expired);
            }
            return expired == batch;
        };
    }

    /** Finishes the hot store's half of restores the database of record still owes it, {@code batch} per pass. */
    public static Pass restoreSweep(CompletePendingRestoresUseCase restores, int batch) {
        requirePositive(batch);
        return () -> {
            int completed = restores.completePendingRestores(batch);
            if (completed > 0) {
                LOG.info("Completed {} pending hot-store restore(s)", completed);
            }
            return completed == batch;
        };
    }

    /** Gives back the units of dead-lettered reservations past their payment deadline, {@code batch} letters a pass. */
    public static Pass deadLetterRelease(ReleaseDeadLettersUseCase release, int batch) {
        requirePositive(batch);
        return () -> {
            DeadLetterPass pass = release.releaseOverdue(batch);
            if (pass.released() > 0) {
                LOG.warn("Closed {} dead-lettered reservation(s) past their payment deadline and gave their units back",
                        pass.released());
            }
            return false;
        };
    }

    /**
     * Loads sales due within the lead time and rebuilds those the hot store lost, as the use case decides; says here
     * what it did, and fails the pass when a rebuild failed, after the others were tried.
     */
    public static Pass warmUps(RunWarmUpScheduleUseCase schedule) {
        return () -> {
            WarmUpRound round = schedule.runWarmUpSchedule();
            if (!round.warmedUp().isEmpty()) {
                LOG.info("Warmed up by schedule: {}", ids(round.warmedUp()));
            }
            for (WarmUpRound.Rebuild rebuild : round.rebuilds()) {
                LOG.warn("Activity {} had sales the hot store lost: rebuild from the database of record {}",
                        rebuild.activity().value(), rebuild.outcome());
            }
            round.failure().ifPresent(failure -> {
                throw failure;
            });
            return false;
        };
    }

    /** Reconciles every live sale with the database of record; repairs are logged by the metrics, findings here. */
    public static Pass reconciliations(ScheduleReconciliationsUseCase reconciliations) {
        return () -> {
            long started = System.nanoTime();
            ReconciliationPass pass = reconciliations.reconcileLive();
            long millis = (System.nanoTime() - started) / 1_000_000;
            if (!pass.rebuilt().isEmpty()) {
                LOG.warn("Rebuilt by the reconciliation schedule: {}", ids(pass.rebuilt()));
            }
            // One line a pass, with its time: a pass that grows with a sale is how a stalled safety net shows first.
            LOG.info("Reconciliation of {} activities in {} ms found {} SKU(s) to report", pass.reconciled().size(),
                    millis, pass.findings().size());
            return false;
        };
    }

    /** Archives ended sales with nothing in flight; the others are tried again next pass. */
    public static Pass archives(ScheduleArchivesUseCase archives) {
        return () -> {
            List<ActivityId> archived = archives.archiveDue();
            if (!archived.isEmpty()) {
                LOG.info("Archived by schedule: {}", ids(archived));
            }
            return false;
        };
    }

    /** Finishes stock transfers between slices that a crash or an outage left unfinished (ADR 109). */
    public static Pass transferSweep(FinishTransfersUseCase transfers) {
        return () -> {
            int finished = transfers.finishUnfinished();
            if (finished > 0) {
                LOG.warn("Finished {} stock transfer(s) between slices that were left unfinished", finished);
            }
            return false;
        };
    }

    /** Moves units between the slices of open sales toward their buyers' demand (ADR 109). */
    public static Pass sliceRebalance(RebalanceSlicesUseCase rebalancer) {
        return () -> {
            int asked = rebalancer.rebalance();
            if (asked > 0) {
                LOG.info("Asked for {} stock transfer(s) between slices toward their buyers' demand", asked);
            }
            return false;
        };
    }

    private static List<String> ids(List<ActivityId> activities) {
        return activities.stream().map(ActivityId::value).toList();
    }

    private static void requirePositive(int batch) {
        if (batch < 1) {
            throw new IllegalArgumentException("a batch must be positive, was " + batch);
        }
    }
}
