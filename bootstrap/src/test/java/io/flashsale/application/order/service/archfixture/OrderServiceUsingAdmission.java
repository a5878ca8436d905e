package io.flashsale.application.order.service.archfixture;

import io.flashsale.application.reservation.service.ReservationAdmission;

/** Breaks the rules on purpose: an order service leaning on a reservation service instead of a port. */
public class OrderServiceUsingAdmission {

    public ReservationAdmission admission;
}
