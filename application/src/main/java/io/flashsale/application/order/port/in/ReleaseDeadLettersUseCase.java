package io.flashsale.application.order.port.in;

import io.flashsale.application.order.model.DeadLetterPass;

public interface ReleaseDeadLettersUseCase {

    /**
     * One pass over up to {@code max} dead letters: a reservation whose event waits there and whose payment deadline
     * has passed is closed as FAILED ({@code NOT_PLACED_IN_TIME}) in the database of record and its units go back in
     * the hot store; one still within its deadline waits for an operator's replay. Safe to repeat, and to run beside
     * a replay or a late delivery: the database decides which one settles the reservation.
     */
    DeadLetterPass releaseOverdue(int max);
}
