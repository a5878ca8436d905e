package io.flashsale.adapter.kafka;

import org.springframework.kafka.listener.BatchListenerFailedException;

/**
 * The whole batch met a store out of reach (or a lock it lost): nothing of it is committed, all of it comes again once
 * the database answers, however long that takes; it is never dead-lettered (ADR 78). Its own class, apart from
 * {@link UnplaceableReservationException}, so that the error handler starts a fresh back-off when one follows the
 * other on the same record.
 */
final class StoresUnavailableBatchException extends BatchListenerFailedException {

    StoresUnavailableBatchException(RuntimeException cause) {
        super("the batch waits for its stores: " + cause.getMessage(), cause, 0);
    }
}
