package io.flashsale.adapter.web;

import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.shared.Identifier;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

public record ReservationLineRequest(
        @NotNull @Pattern(regexp = ApiIds.PATTERN, message = ApiIds.MESSAGE) String skuId,
        @NotNull @Min(1) @Max(ReservationLine.MAX_QUANTITY) Integer quantity) {

    /** True exactly when the constraints above hold (see {@link ReserveRequest#isPlainlyValid()}). */
    boolean isPlainlyValid() {
        return Identifier.isValid(skuId) && quantity != null && quantity >= 1
                && quantity <= ReservationLine.MAX_QUANTITY;
    }

    ReservationLine toLine() {
        return new ReservationLine(new SkuId(skuId), quantity);
    }
}
