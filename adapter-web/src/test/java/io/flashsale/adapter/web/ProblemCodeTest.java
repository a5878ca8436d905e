package io.flashsale.adapter.web;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ProblemCodeTest {

    @Test
    void givenAStatusFromTheFramework_whenCoded_thenTheGenericCodeOfThatStatus() {
        assertThat(ProblemCode.forStatus(400)).isEqualTo(ProblemCode.VALIDATION);
        assertThat(ProblemCode.forStatus(401)).isEqualTo(ProblemCode.UNAUTHORIZED);
        assertThat(ProblemCode.forStatus(404)).isEqualTo(ProblemCode.NOT_FOUND);
        assertThat(ProblemCode.forStatus(405)).isEqualTo(ProblemCode.METHOD_NOT_ALLOWED);
        assertThat(ProblemCode.forStatus(406)).isEqualTo(ProblemCode.NOT_ACCEPTABLE);
        assertThat(ProblemCode.forStatus(413)).isEqualTo(ProblemCode.PAYLOAD_TOO_LARGE);
        assertThat(ProblemCode.forStatus(415)).isEqualTo(ProblemCode.UNSUPPORTED_MEDIA_TYPE);
        assertThat(ProblemCode.forStatus(408)).isEqualTo(ProblemCode.REQUEST_REJECTED);
        assertThat(ProblemCode.forStatus(503)).isEqualTo(ProblemCode.UNAVAILABLE);
        assertThat(ProblemCode.forStatus(500)).isEqualTo(ProblemCode.INTERNAL);
        assertThat(ProblemCode.forStatus(502)).isEqualTo(ProblemCode.INTERNAL);
    }

    @Test
    void givenTheConditionsThatPass_whenAnswered_thenEachIs503() {
        for (ProblemCode code : new ProblemCode[] {ProblemCode.NOT_READY, ProblemCode.UNAVAILABLE, ProblemCode.DEGRADED,
                ProblemCode.BUSY, ProblemCode.TRY_AGAIN}) {
            assertThat(code.status().value()).as(code.name()).isEqualTo(503);
        }
    }

    @Test
    void givenTheLifecycleRefusals_whenAnswered_thenEachIsAConflict() {
        for (ProblemCode code : new ProblemCode[] {ProblemCode.NOT_PAYABLE, ProblemCode.NOT_CANCELLABLE,
                ProblemCode.ACTIVITY_NOT_ENDED, ProblemCode.RESERVATIONS_PENDING, ProblemCode.ACTIVITY_ARCHIVED}) {
            assertThat(code.status().value()).as(code.name()).isEqualTo(409);
        }
    }

    @Test
    void givenTheSaleControlRefusals_whenAnswered_thenStateConflictsAre409AndImpossibleWindows422() {
        for (ProblemCode code : new ProblemCode[] {ProblemCode.SALE_PAUSED, ProblemCode.SALE_ENDED,
                ProblemCode.SALE_STARTED, ProblemCode.ENDS_NOT_AFTER_NOW}) {
            assertThat(code.status().value()).as(code.name()).isEqualTo(409);
        }
        assertThat(ProblemCode.ENDS_NOT_AFTER_START.status().value()).isEqualTo(422);
        assertThat(ProblemCode.STARTS_BEFORE_NOW.status().value()).isEqualTo(422);
    }

    @Test
    void givenTheStockAdjustmentRefusals_whenAnswered_thenBelowSoldConflictsAboveMaximumIsUnprocessable() {
        assertThat(ProblemCode.STOCK_BELOW_SOLD.status().value()).isEqualTo(409);
        assertThat(ProblemCode.STOCK_ABOVE_MAXIMUM.status().value()).isEqualTo(422);
        assertThat(ProblemCode.SKU_NOT_FOUND.status().value()).isEqualTo(404);
    }
}
