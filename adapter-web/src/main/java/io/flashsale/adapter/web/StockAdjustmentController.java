package io.flashsale.adapter.web;

import io.flashsale.application.port.in.AdjustStockUseCase;
import io.flashsale.application.port.in.ListStockAdjustmentsUseCase;
import io.flashsale.application.port.in.StockAdjustmentResult;
import io.flashsale.adapter.web.security.AdminOnly;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.shared.InvalidValueException;
import jakarta.validation.Valid;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriComponentsBuilder;

import java.util.regex.Pattern;

/** Audited changes of a SKU's total: the only way a total changes once a sale exists. */
@RestController
@RequestMapping("/api/v1/activities/{activityId}/stock-adjustments")
public class StockAdjustmentController {

    static final String OPERATOR_HEADER = "X-Operator";
    static final String DEFAULT_OPERATOR = "admin";
    private static final Pattern OPERATOR = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private final AdjustStockUseCase adjust;
    private final ListStockAdjustmentsUseCase adjustments;

    public StockAdjustmentController(AdjustStockUseCase adjust, ListStockAdjustmentsUseCase adjustments) {
        this.adjust = adjust;
        this.adjustments = adjustments;
    }

    /** 201: applied to the database of record, then Redis, then the SKU reconciled. */
    @AdminOnly
    @PostMapping
    public ResponseEntity<?> adjust(@PathVariable String activityId,
                                    @Valid @RequestBody StockAdjustmentRequest request,
                                    @RequestHeader(name = OPERATOR_HEADER, required = false) String operator) {
        ActivityId id = PathIds.activity(activityId);
        if (request.delta() == 0) {
            throw new InvalidValueException("delta", "must not be 0");
        }
        StockAdjustmentResult result = adjust.adjust(id, new SkuId(request.skuId()), request.delta(),
                request.reason(), operatorOf(operator));
        return switch (result) {
            case StockAdjustmentResult.Adjusted adjusted -> ResponseEntity
                    .created(UriComponentsBuilder.fromPath("/api/v1/activities/{id}/stock-adjustments/{adjustment}")
                            .build(id.value(), adjusted.adjustment().id()))
                    .body(StockAdjustedResponse.of(adjusted));
            case StockAdjustmentResult.BelowSold below -> refused(ProblemCode.STOCK_BELOW_SOLD,
                    "the total would fall below the units already sold", below.stock(), below.sold());
            case StockAdjustmentResult.AboveMaximum above -> refused(ProblemCode.STOCK_ABOVE_MAXIMUM,
                    "the total would pass the largest an item may have", above.stock(), null);
        };
    }

    /** Oldest first. */
    @AdminOnly
    @GetMapping
    public StockAdjustmentsResponse list(@PathVariable String activityId) {
        ActivityId id = PathIds.activity(activityId);
        return new StockAdjustmentsResponse(id.value(),
                adjustments.list(id).stream().map(StockAdjustmentResponse::of).toList());
    }

    /** A missing or malformed header is not an error: the audit then names the admin token's holder generically. */
    static String operatorOf(String header) {
        return header != null && OPERATOR.matcher(header).matches() ? header : DEFAULT_OPERATOR;
    }

    private static ResponseEntity<ProblemDetail> refused(ProblemCode code, String detail, long stock, Long sold) {
        ProblemDetail problem = Problems.of(code, detail);
        problem.setProperty("stock", stock);
        if (sold != null) {
            problem.setProperty("sold", sold);
        }
        return Problems.response(problem);
    }
}
