package io.flashsale.adapter.web;

import io.flashsale.domain.activity.SaleWindowChange;
import io.flashsale.domain.activity.SaleWindowChange.Reason;
import org.junit.jupiter.api.Test;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class SaleControlControllerTest {

    private static final MoveSaleWindowRequest LATER = new MoveSaleWindowRequest(null,
            Instant.parse("2030-06-01T13:00:00Z"));

    private static ResponseEntity<?> refusedFor(Reason reason) {
        var controller = new SaleControlController(null, command -> new SaleWindowChange.Refused(reason));
        return controller.moveWindow("summer-sale", LATER);
    }

    @Test
    void givenEachRefusalOfAWindowMove_whenAnswered_thenItsProblemCodeAndStatus() {
        Map<Reason, Integer> statuses = Map.of(Reason.SALE_ENDED, 409, Reason.SALE_STARTED, 409,
                Reason.ENDS_NOT_AFTER_NOW, 409, Reason.ENDS_NOT_AFTER_START, 422, Reason.STARTS_BEFORE_NOW, 422);
        for (Reason reason : Reason.values()) {
            ResponseEntity<?> answer = refusedFor(reason);
            assertThat(answer.getStatusCode().value()).as(reason.name()).isEqualTo(statuses.get(reason));
            assertThat(((ProblemDetail) answer.getBody()).getProperties()).as(reason.name())
                    .containsEntry("code", reason.name());
        }
    }
}
