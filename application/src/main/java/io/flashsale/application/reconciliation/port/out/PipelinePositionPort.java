package io.flashsale.application.reconciliation.port.out;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.ReservationId;

import java.util.Collection;
import java.util.Map;
import java.util.Set;

/**
 * Where the order pipeline stands in the broker: how far its consumer group has read, where the log ends, and which
 * reservations sit in the dead-letter topic. What lets reconciliation judge a reservation lost only when it is
 * provably nowhere in the pipeline, and a rebuild wait until what was in flight has landed.
 */
public interface PipelinePositionPort {

    /** The consumer group's committed offsets now; a partition it never committed reads as 0. */
    PipelineMark consumed();

    /** Where every partition of the reservations topic ends now: everything published so far lies below it. */
    PipelineMark ends();

    /** Those of {@code among} whose event is in the dead-letter topic, waiting for an operator's replay. */
    Set<ReservationId> deadLettered(Collection<ReservationId> among);

    /** Dead letters of the activity's reservations (by the activity named in their key). */
    long deadLettersOf(ActivityId activityId);

    /** No broker behind it: nothing counts as read, nothing as dead-lettered (units tests and the in-memory store). */
    PipelinePositionPort NONE = new PipelinePositionPort() {
        @Override
        public PipelineMark consumed() {
            return new PipelineMark(Map.of());
        }

        @Override
        public PipelineMark ends() {
            return new PipelineMark(Map.of());
        }

        @Override
        public Set<ReservationId> deadLettered(Collection<ReservationId> among) {
            return Set.of();
        }

        @Override
        public long deadLettersOf(ActivityId activityId) {
            return 0;
        }
    };
}
