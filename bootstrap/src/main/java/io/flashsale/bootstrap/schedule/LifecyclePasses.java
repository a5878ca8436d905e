package io.flashsale.bootstrap.schedule;

import io.flashsale.application.port.in.CompletePendingRestoresUseCase;
import io.flashsale.application.port.in.ExpireUnpaidOrdersUseCase;
import io.flashsale.application.port.in.RebuildLedgerUseCase;
import io.flashsale.application.port.in.ReleaseDeadLettersUseCase;
import io.flashsale.application.port.in.ReconciliationPass;
import io.flashsale.application.port.in.ScheduleArchivesUseCase;
import io.flashsale.application.port.in.ScheduleReconciliationsUseCase;
import io.flashsale.application.port.in.ScheduleWarmUpsUseCase;
import io.flashsale.application.port.in.WarmUpPass;
import io.flashsale.application.port.in.RebuildOutcome;
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
            ReleaseDeadLettersUseCase.DeadLetterPass pass = release.releaseOverdue(batch);
            if (pass.released() > 0) {
                LOG.warn("Closed {} dead-lettered reservation(s) past their payment deadline and gave their units back",
                        pass.released());
            }
            return false;
        };
    }

    /**
     * Loads sales due within the lead time; those the hot store lost (they have sales already) are rebuilt from the
     * database of record, one by one, so a failure with one leaves the others rebuilt.
     */
    public static Pass warmUps(ScheduleWarmUpsUseCase warmUps, RebuildLedgerUseCase rebuilds) {
        return () -> {
            WarmUpPass pass = warmUps.warmUpDue();
            if (!pass.warmedUp().isEmpty()) {
                LOG.info("Warmed up by schedule: {}", ids(pass.warmedUp()));
            }
            RuntimeException failure = null;
            for (ActivityId lost : pass.awaitingRebuild()) {
                try {
                    RebuildOutcome outcome = rebuilds.rebuild(lost);
                    LOG.warn("Activity {} had sales the hot store lost: rebuild from the database of record {}",
                            lost.value(), outcome);
                } catch (RuntimeException e) {
                    failure = addTo(failure, e);
                }
            }
            if (failure != null) {
                throw failure;
            }
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

    private static List<String> ids(List<ActivityId> activities) {
        return activities.stream().map(ActivityId::value).toList();
    }

    private static RuntimeException addTo(RuntimeException first, RuntimeException next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }

    private static void requirePositive(int batch) {
        if (batch < 1) {
            throw new IllegalArgumentException("a batch must be positive, was " + batch);
        }
    }
}
