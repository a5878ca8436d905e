package io.flashsale.bootstrap.schedule;

import io.flashsale.application.port.in.CompletePendingRestoresUseCase;
import io.flashsale.application.port.in.ExpireUnpaidOrdersUseCase;
import io.flashsale.application.port.in.ScheduleArchivesUseCase;
import io.flashsale.application.port.in.ScheduleWarmUpsUseCase;
import io.flashsale.application.port.in.WarmUpPass;
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

    /** Loads sales due within the lead time; those the hot store lost are named every pass until they are rebuilt. */
    public static Pass warmUps(ScheduleWarmUpsUseCase warmUps) {
        return () -> {
            WarmUpPass pass = warmUps.warmUpDue();
            if (!pass.warmedUp().isEmpty()) {
                LOG.info("Warmed up by schedule: {}", ids(pass.warmedUp()));
            }
            if (!pass.awaitingRebuild().isEmpty()) {
                LOG.warn("Not warmed up, awaiting a rebuild from the database of record (it has sales the hot store "
                        + "lost; loading the totals would sell them again): {}", ids(pass.awaitingRebuild()));
            }
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

    private static void requirePositive(int batch) {
        if (batch < 1) {
            throw new IllegalArgumentException("a batch must be positive, was " + batch);
        }
    }
}
