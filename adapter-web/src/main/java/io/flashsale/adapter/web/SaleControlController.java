package io.flashsale.adapter.web;

import io.flashsale.adapter.web.security.AdminOnly;
import io.flashsale.application.sale.port.in.MoveSaleWindowUseCase;
import io.flashsale.application.sale.port.in.PauseSaleUseCase;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SaleWindowChange;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** The operator's hand on a running sale: pause, resume, and its window moved (ADR 79). */
@RestController
@RequestMapping("/api/v1/activities")
public class SaleControlController {

    private final PauseSaleUseCase pauseSale;
    private final MoveSaleWindowUseCase moveWindow;

    public SaleControlController(PauseSaleUseCase pauseSale, MoveSaleWindowUseCase moveWindow) {
        this.pauseSale = pauseSale;
        this.moveWindow = moveWindow;
    }

    /** Every attempt inside the window is refused {@code SALE_PAUSED} until resumed; safe to repeat. */
    @AdminOnly
    @PostMapping("/{activityId}/pause")
    public SaleTermsResponse pause(@PathVariable String activityId) {
        return SaleTermsResponse.of(pauseSale.pause(PathIds.activity(activityId)));
    }

    @AdminOnly
    @PostMapping("/{activityId}/resume")
    public SaleTermsResponse resume(@PathVariable String activityId) {
        return SaleTermsResponse.of(pauseSale.resume(PathIds.activity(activityId)));
    }

    /** Extends, shortens or moves the window in the database of record and Redis together. */
    @AdminOnly
    @PatchMapping("/{activityId}")
    public ResponseEntity<?> moveWindow(@PathVariable String activityId, @RequestBody MoveSaleWindowRequest request) {
        ActivityId id = PathIds.activity(activityId);
        return switch (moveWindow.move(request.toCommand(id))) {
            case SaleWindowChange.Moved moved -> ResponseEntity.ok(SaleTermsResponse.of(moved.activity()));
            case SaleWindowChange.Refused refused -> Problems.response(refusal(refused.reason()));
        };
    }

    private static ProblemDetail refusal(SaleWindowChange.Reason reason) {
        return switch (reason) {
            case SALE_ENDED -> Problems.of(ProblemCode.SALE_ENDED, "the sale has ended: its window no longer moves");
            case SALE_STARTED -> Problems.of(ProblemCode.SALE_STARTED,
                    "the sale has started: only its end may move");
            case ENDS_NOT_AFTER_NOW -> Problems.of(ProblemCode.ENDS_NOT_AFTER_NOW,
                    "the new end is not in the future: a running sale is never cut short below now");
            case ENDS_NOT_AFTER_START -> Problems.of(ProblemCode.ENDS_NOT_AFTER_START,
                    "the new end does not come after the start");
            case STARTS_BEFORE_NOW -> Problems.of(ProblemCode.STARTS_BEFORE_NOW, "the new start is in the past");
        };
    }
}
