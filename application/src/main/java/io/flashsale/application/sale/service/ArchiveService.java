package io.flashsale.application.sale.service;

import io.flashsale.application.reservation.port.out.SettledReservationsPort;
import io.flashsale.application.sale.model.ArchiveOutcome;
import io.flashsale.application.sale.port.in.ArchiveActivityUseCase;
import io.flashsale.application.sale.port.in.ScheduleArchivesUseCase;
import io.flashsale.application.sale.port.out.ActivityArchivesPort;
import io.flashsale.application.sale.port.out.ActivityLookupPort;
import io.flashsale.application.sale.port.out.HotStoreArchivePort;
import io.flashsale.application.sale.port.out.SaleChangesPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SalePhase;
import io.flashsale.domain.reservation.ReservationId;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Clears an ended sale out of the hot store once every reservation it accepted has left it: none is still RESERVED,
 * the outbox has handed every one to the order pipeline, and every one the buyer cancelled while RESERVED is settled
 * in the database of record (until then the order pipeline needs the hot store to tell it so). The database of record
 * keeps the orders and the buyers' purchases as they are. The hot store is cleared before the database notes the
 * archive, so a crash in between leaves an activity that the next pass finds ended, not archived and already
 * cleared, and simply finishes.
 */
public class ArchiveService implements ArchiveActivityUseCase, ScheduleArchivesUseCase {

    private final ActivityLookupPort activities;
    private final ActivityArchivesPort archives;
    private final HotStoreArchivePort hotStore;
    private final SettledReservationsPort settled;
    private final Clock clock;
    private final SaleChangesPort changes;

    /** @param changes told of each archive: a read of the sale shows its ledgers on record from then on */
    public <S extends ActivityLookupPort & ActivityArchivesPort>
    ArchiveService(S activities, HotStoreArchivePort hotStore, SettledReservationsPort settled,
                   Clock clock, SaleChangesPort changes) {
        this.activities = activities;
        this.archives = activities;
        this.hotStore = hotStore;
        this.settled = settled;
        this.clock = clock;
        this.changes = changes;
    }

    @Override
    public ArchiveOutcome archive(ActivityId activityId) {
        Optional<Activity> activity = activities.findById(activityId);
        if (activity.isEmpty()) {
            return new ArchiveOutcome.NotFound();
        }
        Optional<Instant> archivedAt = archives.archivedAt(activityId);
        if (archivedAt.isPresent()) {
            // A warm-up racing the first archive may have loaded it again; it was drained then, so clearing is safe.
            hotStore.delete(activityId);
            return new ArchiveOutcome.AlreadyArchived(archivedAt.get());
        }
        // Milliseconds: what the database of record keeps, so a repeated archive reports the same instant.
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        if (activity.get().phaseAt(now) != SalePhase.ENDED) {
            return new ArchiveOutcome.NotEnded(activity.get().endsAt());
        }
        Optional<ArchiveOutcome> inFlight = inFlight(activityId);
        if (inFlight.isPresent()) {
            return inFlight.get();
        }
        // The delete checks the outbox in its own atomic step: an entry not yet handed on refuses it, nothing goes.
        if (!hotStore.delete(activityId)) {
            return new ArchiveOutcome.OutboxNotDrained();
        }
        if (archives.markArchived(activityId, now)) {
            changes.announce(activityId);
            return new ArchiveOutcome.Archived(now);
        }
        // Another instance noted it first.
        return new ArchiveOutcome.AlreadyArchived(archives.archivedAt(activityId).orElse(now));
    }

    /** The refusal when some reservation of the activity has not fully left the hot store yet. */
    private Optional<ArchiveOutcome> inFlight(ActivityId activityId) {
        long reserved = hotStore.reservedCount(activityId);
        if (reserved > 0) {
            return Optional.of(new ArchiveOutcome.StillReserved(reserved));
        }
        Set<ReservationId> unsettled = settled.unsettled(hotStore.cancelledReservations(activityId));
        if (!unsettled.isEmpty()) {
            return Optional.of(new ArchiveOutcome.CancellationsUnsettled(unsettled.size()));
        }
        return Optional.empty();
    }

    /** A failure with one activity does not stop the others; the pass then throws the first, the others suppressed. */
    @Override
    public List<ActivityId> archiveDue() {
        var archived = new ArrayList<ActivityId>();
        RuntimeException failure = null;
        for (ActivityId activityId : archives.findEndedUnarchived(clock.instant())) {
            try {
                if (archive(activityId) instanceof ArchiveOutcome.Archived) {
                    archived.add(activityId);
                }
            } catch (RuntimeException storeFailure) {
                if (failure == null) {
                    failure = storeFailure;
                } else {
                    failure.addSuppressed(storeFailure);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
        return archived;
    }
}
