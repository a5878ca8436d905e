package io.flashsale.application.order.port.out;

import java.time.Instant;

/**
 * How far the relays are behind on one activity's outbox.
 *
 * @param depth          entries not yet acknowledged (waiting for the broker, or pending with a relay)
 * @param oldestWaiting  when the oldest of them was accepted; null when none waits
 */
public record OutboxBacklog(long depth, Instant oldestWaiting) {

    public static final OutboxBacklog EMPTY = new OutboxBacklog(0, null);
}
