package io.flashsale.application.slice.port.in;

/** Finishes the stock transfers a crash or an outage left unfinished (ADR 109): one runner at a time. */
public interface FinishTransfersUseCase {

    /** One pass over the unfinished transfers, oldest first; returns how many it finished. */
    int finishUnfinished();
}
