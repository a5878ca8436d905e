package io.flashsale.application.order.service;

import io.flashsale.application.order.port.in.ManageDeadLettersUseCase;
import io.flashsale.application.order.port.out.DeadLetter;
import io.flashsale.application.order.port.out.DeadLetterPort;

import java.util.List;
import java.util.Optional;

public class DeadLetterService implements ManageDeadLettersUseCase {

    public static final int MAX_LISTED = 1000;

    private final DeadLetterPort deadLetters;

    public DeadLetterService(DeadLetterPort deadLetters) {
        this.deadLetters = deadLetters;
    }

    @Override
    public List<DeadLetter> deadLetters(int max) {
        return deadLetters.list(Math.clamp(max, 1, MAX_LISTED));
    }

    @Override
    public boolean replay(String deadLetterId) {
        Optional<DeadLetter> deadLetter = deadLetters.find(deadLetterId);
        deadLetter.ifPresent(deadLetters::replay);
        return deadLetter.isPresent();
    }
}
