package io.flashsale.adapter.redis.internal;

import io.flashsale.application.shared.port.out.HotStoreFiguresDisagreeException;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.stock.SkuStock;
import io.flashsale.domain.stock.StockLedger;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScriptRepliesTest {

    @Test
    void givenNoFigures_thenTheActivityIsNotWarmedUp() {
        assertThat(ScriptReplies.stock(List.of())).isEmpty();
    }

    @Test
    void givenFiguresOfTwoSkus_thenLedgersInReplyOrder() {
        List<Object> reply = List.of("b", "10", "3", "2", 5L, "a", "0", "0", "0", 0L);

        assertThat(ScriptReplies.stock(reply)).contains(List.of(
                new SkuStock(new SkuId("b"), new StockLedger(10, 3, 2)),
                new SkuStock(new SkuId("a"), new StockLedger(0, 0, 0))));
    }

    @Test
    void givenSegmentsThatDisagreeWithTheLedger_thenTheFiguresAreReportedAsDisagreeing() {
        List<Object> reply = List.of("b", "10", "3", "2", 6L);

        assertThatThrownBy(() -> ScriptReplies.stock(reply)).isInstanceOf(HotStoreFiguresDisagreeException.class)
                .hasMessageContaining("segments of b hold 6");
    }

    @Test
    void givenALedgerSellingMoreThanItsTotal_thenTheFiguresAreReportedAsDisagreeing() {
        List<Object> reply = List.of("b", "10", "3", "9", 0L);

        assertThatThrownBy(() -> ScriptReplies.stock(reply)).isInstanceOf(HotStoreFiguresDisagreeException.class)
                .hasMessageContaining("the ledger of b is impossible");
    }
}
