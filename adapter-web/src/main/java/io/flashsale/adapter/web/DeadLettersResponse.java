package io.flashsale.adapter.web;

import io.flashsale.application.order.port.out.DeadLetter;

import java.time.Instant;
import java.util.List;

public record DeadLettersResponse(List<DeadLetterResponse> deadLetters) {

    /**
     * @param id      the handle to replay it with
     * @param payload the event exactly as it was received
     */
    public record DeadLetterResponse(String id, String reservationId, String error, Instant failedAt, String payload) {
    }

    static DeadLettersResponse of(List<DeadLetter> deadLetters) {
        return new DeadLettersResponse(deadLetters.stream()
                .map(letter -> new DeadLetterResponse(letter.id(), letter.reservationId(), letter.error(),
                        letter.failedAt(), letter.payload()))
                .toList());
    }
}
