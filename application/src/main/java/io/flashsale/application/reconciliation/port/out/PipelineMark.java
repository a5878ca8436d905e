package io.flashsale.application.reconciliation.port.out;

import io.flashsale.application.order.port.out.EventPosition;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Offsets per partition of the reservations topic at one moment: where the order consumer's group has committed
 * (the next event it will read), or where the log ends.
 */
public record PipelineMark(Map<Integer, Long> offsets) {

    public PipelineMark {
        offsets = Map.copyOf(Objects.requireNonNull(offsets, "offsets"));
    }

    /** True when the consumer at this mark has read past the event: it was placed, refused or dead-lettered. */
    public boolean readPast(EventPosition position) {
        return offsets.getOrDefault(position.partition(), 0L) > position.offset();
    }

    /** True when this mark is at or beyond {@code target} on every partition of the target. */
    public boolean reached(PipelineMark target) {
        return target.offsets.entrySet().stream()
                .allMatch(end -> offsets.getOrDefault(end.getKey(), 0L) >= end.getValue());
    }

    /** Events between this mark and {@code target}, summed over the target's partitions (0 where this is ahead). */
    public long behind(PipelineMark target) {
        return target.offsets.entrySet().stream()
                .mapToLong(end -> Math.max(0, end.getValue() - offsets.getOrDefault(end.getKey(), 0L)))
                .sum();
    }

    @Override
    public String toString() {
        return new TreeMap<>(offsets).toString();
    }
}
