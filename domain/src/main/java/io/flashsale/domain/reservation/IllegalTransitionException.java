package io.flashsale.domain.reservation;

public class IllegalTransitionException extends IllegalStateException {

    private final ReservationStatus from;
    private final ReservationStatus to;

    public IllegalTransitionException(ReservationStatus from, ReservationStatus to) {
        super("a reservation cannot go from " + from + " to " + to);
        this.from = from;
        this.to = to;
    }

    public ReservationStatus from() {
        return from;
    }

    public ReservationStatus to() {
        return to;
    }
}
