package io.flashsale.adapter.web;

/** The order pipeline's live figures the operators' page shows, read from the service's meters. */
public interface PipelineFigures {

    enum Figure { ORDERS_PLACED, EVENTS_RELAYED, CONSUMER_LAG, OUTBOX_DEPTH, OUTBOX_OLDEST_AGE_SECONDS }

    /** The figure now, or null while nothing measures it. */
    Double value(Figure figure);
}
