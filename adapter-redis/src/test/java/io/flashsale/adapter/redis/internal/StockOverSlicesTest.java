package io.flashsale.adapter.redis.internal;

import io.flashsale.application.shared.port.out.HotStoreFiguresDisagreeException;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.stock.SkuStock;
import io.flashsale.domain.stock.StockLedger;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StockOverSlicesTest {

    private static final SkuId A = new SkuId("a");
    private static final SkuId B = new SkuId("b");

    @Test
    void eachSkusFiguresAreSummedOverTheSlices_inSliceZerosOrder() {
        List<SkuStock> zero = List.of(new SkuStock(A, new StockLedger(10, 2, 1)), new SkuStock(B, StockLedger.of(3)));
        List<SkuStock> one = List.of(new SkuStock(A, new StockLedger(9, 0, 4)), new SkuStock(B, new StockLedger(3, 3,
                0)));

        assertThat(StockOverSlices.summed(List.of(zero, one))).containsExactly(
                new SkuStock(A, new StockLedger(19, 2, 5)), new SkuStock(B, new StockLedger(6, 3, 0)));
        assertThat(StockOverSlices.summed(List.of(zero))).as("one slice").isEqualTo(zero);
    }

    @Test
    void slicesHoldingOtherSkusHaveDrifted() {
        List<SkuStock> zero = List.of(new SkuStock(A, StockLedger.of(10)), new SkuStock(B, StockLedger.of(3)));

        assertThatThrownBy(() -> StockOverSlices.summed(List.of(zero, List.of(new SkuStock(A, StockLedger.of(9))))))
                .isInstanceOf(HotStoreFiguresDisagreeException.class).hasMessageContaining("slice 1");
        assertThatThrownBy(() -> StockOverSlices.summed(List.of(zero, List.of(new SkuStock(B, StockLedger.of(3)),
                new SkuStock(A, StockLedger.of(9)))))).isInstanceOf(HotStoreFiguresDisagreeException.class);
    }
}
