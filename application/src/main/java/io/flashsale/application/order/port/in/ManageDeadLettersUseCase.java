package io.flashsale.application.order.port.in;

import io.flashsale.application.order.port.out.DeadLetter;

import java.util.List;

public interface ManageDeadLettersUseCase {

    List<DeadLetter> deadLetters(int max);

    /** @return false when there is no dead letter with that id */
    boolean replay(String deadLetterId);
}
