package io.flashsale.application.sale.port.in.archfixture;

/** Breaks the rules on purpose: an in-port whose name does not end in UseCase. */
public interface ReservationFinder {

    Object find(String id);
}
