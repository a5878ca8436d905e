package io.flashsale.adapter.web;

/**
 * Counters since the instance started and gauges now; a figure nothing measures yet is null.
 *
 * @param ordersPlaced           orders this instance's consumer placed
 * @param eventsRelayed          reservation events this instance's relay put on the topic
 * @param consumerLag            the order consumer's largest partition lag, in records
 * @param outboxDepth            outbox entries waiting for the broker (one per reserve call, of one or more reservations)
 * @param outboxOldestAgeSeconds the oldest waiting event's age
 */
public record PipelineFiguresResponse(Double ordersPlaced, Double eventsRelayed, Double consumerLag,
                                      Double outboxDepth, Double outboxOldestAgeSeconds) {
}
