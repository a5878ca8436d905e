package io.flashsale.chaos.schedule;

import java.util.List;

/**
 * One step of a buyer's workload.
 *
 * @param atMillis  when the buyer sends it, from the start of the workload (a buyer's steps are sequential)
 * @param requestId the reservation's idempotency key; a {@link Kind#REPEAT} sends the same key as an earlier step
 * @param pick      for pay and cancel: which of the buyer's reservations so far (modulo their number)
 */
public record Operation(long atMillis, int buyer, Kind kind, String requestId, List<Line> lines, int pick) {

    public enum Kind { RESERVE, REPEAT, PAY, CANCEL }

    public record Line(String skuId, int quantity) {
    }

    public Operation {
        lines = List.copyOf(lines);
    }
}
