package io.flashsale.adapter.web;

import io.flashsale.adapter.web.security.AdminOnly;
import io.flashsale.application.order.port.in.ManageDeadLettersUseCase;
import io.flashsale.domain.shared.InvalidValueException;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Reservation events the order pipeline gave up on, for an admin to look at and send through again. */
@RestController
@RequestMapping("/api/v1/admin/dead-letters")
public class DeadLetterController {

    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 1000;

    private final ManageDeadLettersUseCase deadLetters;

    public DeadLetterController(ManageDeadLettersUseCase deadLetters) {
        this.deadLetters = deadLetters;
    }

    /** Oldest first, at most {@code limit} (1..1000, default 100). */
    @AdminOnly
    @GetMapping
    public DeadLettersResponse list(@RequestParam(name = "limit", required = false) Integer limit) {
        int max = limit == null ? DEFAULT_LIMIT : limit;
        if (max < 1 || max > MAX_LIMIT) {
            throw new InvalidValueException("limit", "must be between 1 and " + MAX_LIMIT);
        }
        return DeadLettersResponse.of(deadLetters.deadLetters(max));
    }

    /** 202 once the event is back on the reservations topic; the order consumer takes it from there. */
    @AdminOnly
    @PostMapping("/{deadLetterId}/replay")
    public ResponseEntity<Void> replay(@PathVariable String deadLetterId) {
        if (!deadLetters.replay(deadLetterId)) {
            throw new NotFoundException(ProblemCode.DEAD_LETTER_NOT_FOUND, "there is no such dead letter");
        }
        return ResponseEntity.accepted().build();
    }
}
