package io.flashsale.domain.order;

/** What placing a reservation as an order came to. */
public sealed interface OrderPlacement {

    Order order();

    /** This delivery created the order. */
    record Placed(Order order) implements OrderPlacement {
    }

    /** An earlier delivery already settled this reservation (placed, refused or cancelled); nothing changed. */
    record AlreadyPlaced(Order order) implements OrderPlacement {
    }

    /** The database refused the reservation; a FAILED order records why. */
    record Refused(Order order) implements OrderPlacement {
    }

    /**
     * The buyer cancelled the reservation before it was delivered: it is recorded as a CANCELLED order that
     * took no stock, so it can never become an order later.
     */
    record CancelledBeforeOrder(Order order) implements OrderPlacement {
    }
}
