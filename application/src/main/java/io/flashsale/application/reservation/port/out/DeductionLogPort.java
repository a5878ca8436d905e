package io.flashsale.application.reservation.port.out;

/** Told of every attempt the stock store answered, the refusals included, for an operator's log (ADR 0087). */
public interface DeductionLogPort {

    void deducted(Deduction deduction);

    /** Tells no one: the log is off. */
    static DeductionLogPort none() {
        return deduction -> {
        };
    }
}
