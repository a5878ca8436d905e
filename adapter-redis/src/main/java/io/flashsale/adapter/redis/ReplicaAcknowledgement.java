package io.flashsale.adapter.redis;

import java.time.Duration;

/**
 * How many replicas must hold a reserve call's writes before its buyers are answered (ADR 0097): after each call of
 * {@code reserve.lua} (one batch of a sale's attempts, ADR 0068) the adapter sends {@code WAIT replicas timeout} on the
 * connection the call used, and answers the batch only when WAIT returned. A WAIT that returns fewer replicas than
 * asked within the timeout does not undo or refuse anything: the reservations are in the master and its outbox and are
 * answered as they were decided, and the call is counted as short ({@link Figures#shortCalls()}).
 *
 * @param replicas 0: no WAIT, buyers are answered once the master decided (Redis replication stays asynchronous)
 * @param timeout  how long one WAIT may block; shorter than the command timeout, so that a short WAIT is never an
 *                 outage
 */
public record ReplicaAcknowledgement(int replicas, Duration timeout) {

    /** No WAIT: the master's answer is the buyer's. */
    public static final ReplicaAcknowledgement NONE = new ReplicaAcknowledgement(0, Duration.ofMillis(100));

    public ReplicaAcknowledgement {
        if (replicas < 0) {
            throw new IllegalArgumentException("replicas to wait for cannot be negative: " + replicas);
        }
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            // WAIT with 0 blocks for ever: a replica that is gone would stop the sale.
            throw new IllegalArgumentException("a WAIT needs a positive timeout, not " + timeout);
        }
    }

    public boolean waits() {
        return replicas > 0;
    }

    /**
     * Reserve calls whose WAIT saw at least the replicas asked for, and calls it returned short (fewer within the
     * timeout), since the store was made.
     */
    public record Figures(long confirmedCalls, long shortCalls) {
    }
}
