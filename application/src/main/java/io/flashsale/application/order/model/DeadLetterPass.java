package io.flashsale.application.order.model;

/**
 * What one pass over the dead letters did.
 *
 * @param released reservations this pass closed and gave back
 * @param held     dead-lettered reservations still holding their units, within their deadline
 */
public record DeadLetterPass(int released, int held) {
}
