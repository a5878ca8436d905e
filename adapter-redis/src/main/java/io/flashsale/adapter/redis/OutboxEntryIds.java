package io.flashsale.adapter.redis;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;

/**
 * The {@link io.flashsale.application.order.port.out.OutboxEntry#entryId()} the outbox gives a reader: where the entry
 * is, unique among every slice's stream of a sale (ADR 109), since two streams may give the same stream id. Slice 0's
 * is its stream id as it is ({@code <millis>-<sequence>}), so a sale of one slice reads as it always has; slice
 * {@code k} of {@code n}'s is {@code <k>of<n>:<stream id>}, naming the slice as a reservation id does, so an
 * acknowledgement finds its stream from the entry id alone. A stream id never holds {@code :}.
 */
final class OutboxEntryIds {

    private static final char SLICE_END = ':';
    private static final String OF = "of";

    private OutboxEntryIds() {
    }

    static String of(SaleSlice slice, String streamId) {
        if (slice.index() == 0) {
            return streamId;
        }
        return slice.index() + OF + slice.slices().count() + SLICE_END + streamId;
    }

    /** The slice whose stream holds the entry. */
    static SaleSlice sliceOf(ActivityId activityId, String entryId) {
        int end = entryId.indexOf(SLICE_END);
        if (end < 0) {
            return RedisKeys.sliceZero(activityId);
        }
        int of = entryId.indexOf(OF);
        if (of <= 0 || of > end) {
            throw new IllegalArgumentException("no outbox entry id of a slice: " + entryId);
        }
        try {
            int index = Integer.parseInt(entryId, 0, of, 10);
            int count = Integer.parseInt(entryId, of + OF.length(), end, 10);
            return new SaleSlice(activityId, index, new SaleSlices(count));
        } catch (RuntimeException notASlice) {
            throw new IllegalArgumentException("no outbox entry id of a slice: " + entryId, notASlice);
        }
    }

    /** The id of the entry in its slice's stream. */
    static String streamId(String entryId) {
        return entryId.substring(entryId.indexOf(SLICE_END) + 1);
    }
}
