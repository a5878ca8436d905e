package io.flashsale.adapter.web;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StockAdjustmentControllerTest {

    @Test
    void givenAWellFormedOperatorHeader_whenAdjusting_thenTheAuditNamesThatOperator() {
        assertThat(StockAdjustmentController.operatorOf("ops_jane-1")).isEqualTo("ops_jane-1");
        assertThat(StockAdjustmentController.operatorOf("a".repeat(64))).isEqualTo("a".repeat(64));
    }

    @Test
    void givenNoOrAMalformedOperatorHeader_whenAdjusting_thenTheAuditNamesTheAdmin() {
        assertThat(StockAdjustmentController.operatorOf(null)).isEqualTo("admin");
        assertThat(StockAdjustmentController.operatorOf("")).isEqualTo("admin");
        assertThat(StockAdjustmentController.operatorOf("jane doe")).isEqualTo("admin");
        assertThat(StockAdjustmentController.operatorOf("a".repeat(65))).isEqualTo("admin");
        assertThat(StockAdjustmentController.operatorOf("x\ny")).isEqualTo("admin");
    }
}
