package io.flashsale.application.reconciliation.service;

import io.flashsale.application.order.port.out.EventPosition;
import io.flashsale.application.reconciliation.port.out.PipelineMark;
import io.flashsale.application.reconciliation.port.out.PipelinePositionPort;
import io.flashsale.application.reconciliation.port.out.RelayedEventsPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reconciliation.HotReservation;
import io.flashsale.domain.reconciliation.HotSkuSnapshot;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Finds where the RESERVED reservations of a look are in the order pipeline, by position, not by age (ADR 29). Must run
 * after the hot store's look and before the database of record is read, in this order:
 * <ol>
 *   <li>the broker positions recorded on the records (the relay writes one in the step that acknowledges the entry);</li>
 *   <li>for those without one, the outbox as it is now: an entry appended after the look's own outbox read is found
 *   here, and one acknowledged since step 1 has a position, which the re-drive's atomic check sees;</li>
 *   <li>the consumer group's committed offsets: an event at or beyond them is still in the broker. One it read past
 *   was placed, refused or dead-lettered before the database is read, so a missing order there means the event is
 *   in the dead-letter topic or lost.</li>
 * </ol>
 * Without a view of the pipeline (no {@link RelayedEventsPort}: the in-memory reference) a reservation younger than
 * the grace counts as on its way, as before.
 */
final class PipelinePlaces {

    /** A SKU's look with what was found in the pipeline marked, and where the rest were last seen. */
    record Placed(HotSkuSnapshot hot, Map<ReservationId, Optional<EventPosition>> seenAt) {

        Optional<EventPosition> seenAt(ReservationId id) {
            return seenAt.getOrDefault(id, Optional.empty());
        }
    }

    private final RelayedEventsPort relayed;
    private final PipelinePositionPort broker;

    /** @param relayed {@link RelayedEventsPort#NONE} when the hot store offers no view of its outbox and positions */
    PipelinePlaces(RelayedEventsPort relayed, PipelinePositionPort broker) {
        this.relayed = Objects.requireNonNull(relayed, "relayed");
        this.broker = broker;
    }

    boolean exact() {
        return relayed != RelayedEventsPort.NONE;
    }

    Placed place(ActivityId activityId, HotSkuSnapshot hot, Instant now, Duration grace) {
        List<HotReservation> candidates = hot.reservations().stream()
                .filter(held -> held.status() == ReservationStatus.RESERVED && !held.inPipeline())
                .toList();
        if (candidates.isEmpty()) {
            return new Placed(hot, Map.of());
        }
        if (!exact()) {
            Instant lately = now.minus(grace);
            return new Placed(hot.withInPipeline(candidates.stream()
                    .filter(held -> !held.reservedAt().isBefore(lately))
                    .map(HotReservation::id).collect(Collectors.toSet())), Map.of());
        }
        Set<ReservationId> ids = candidates.stream().map(HotReservation::id).collect(Collectors.toSet());
        Map<ReservationId, EventPosition> positions = relayed.positions(activityId, ids);
        Set<ReservationId> unpositioned = new HashSet<>(ids);
        unpositioned.removeAll(positions.keySet());
        Set<ReservationId> found = new HashSet<>(unpositioned.isEmpty() ? Set.of()
                : relayed.unrelayed(activityId, unpositioned));
        if (!positions.isEmpty()) {
            PipelineMark consumed = broker.consumed();
            positions.forEach((id, position) -> {
                if (!consumed.readPast(position)) {
                    found.add(id);
                }
            });
        }
        Map<ReservationId, Optional<EventPosition>> seenAt = ids.stream().filter(id -> !found.contains(id))
                .collect(Collectors.toMap(id -> id, id -> Optional.ofNullable(positions.get(id))));
        return new Placed(hot.withInPipeline(found), seenAt);
    }
}
