package io.flashsale.domain.slice;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SliceAllotmentTest {

    private static final Instant AT = Instant.parse("2026-11-11T00:00:00Z");
    private static final ActivityId SALE = new ActivityId("a");
    private static final SkuId SKU = new SkuId("s");
    private static final SaleSlices THREE = new SaleSlices(3);

    private static SaleSlice slice(int index) {
        return new SaleSlice(SALE, index, THREE);
    }

    private static StockTransfer requested(long id, SkuId sku, int from, int to, long units) {
        return StockTransfer.requested(id, SALE, sku, from, to, units, AT);
    }

    @Test
    void withoutTransfers_eachSliceHoldsItsShare_andTheSharesAddUpToTheStock() {
        long sum = 0;
        for (int k = 0; k < 3; k++) {
            SliceAllotment allotment = SliceAllotment.of(slice(k), SKU, 100, List.of());
            assertThat(allotment.inTransfer()).isFalse();
            sum += allotment.units();
        }
        assertThat(SliceAllotment.of(slice(0), SKU, 100, List.of()).units()).isEqualTo(34);
        assertThat(SliceAllotment.of(slice(2), SKU, 100, List.of()).units()).isEqualTo(33);
        assertThat(sum).isEqualTo(100);
    }

    @Test
    void aDoneTransferMovesWhatTheSourceGave_notWhatWasAsked() {
        List<StockTransfer> transfers = List.of(requested(1, SKU, 0, 2, 20).taken(12).done());

        assertThat(SliceAllotment.of(slice(0), SKU, 100, transfers)).isEqualTo(new SliceAllotment(22, false));
        assertThat(SliceAllotment.of(slice(1), SKU, 100, transfers)).isEqualTo(new SliceAllotment(33, false));
        assertThat(SliceAllotment.of(slice(2), SKU, 100, transfers)).isEqualTo(new SliceAllotment(45, false));
    }

    @Test
    void aTakenTransferIsInTransit_inNeitherSlice_andBothAreInTransfer() {
        List<StockTransfer> transfers = List.of(requested(1, SKU, 0, 2, 20).taken(12));

        assertThat(SliceAllotment.of(slice(0), SKU, 100, transfers)).isEqualTo(new SliceAllotment(22, true));
        assertThat(SliceAllotment.of(slice(2), SKU, 100, transfers)).isEqualTo(new SliceAllotment(33, true));
        assertThat(SliceAllotment.of(slice(1), SKU, 100, transfers)).isEqualTo(new SliceAllotment(33, false));
    }

    @Test
    void aRequestedTransferMovesNothingYet_butBothEndsAreInTransfer() {
        List<StockTransfer> transfers = List.of(requested(1, SKU, 1, 0, 5));

        assertThat(SliceAllotment.of(slice(1), SKU, 100, transfers)).isEqualTo(new SliceAllotment(33, true));
        assertThat(SliceAllotment.of(slice(0), SKU, 100, transfers)).isEqualTo(new SliceAllotment(34, true));
    }

    @Test
    void aTransferThatGaveNothingIsDone_andMovesNothing() {
        List<StockTransfer> transfers = List.of(requested(1, SKU, 1, 0, 5).taken(0));

        assertThat(SliceAllotment.of(slice(1), SKU, 100, transfers)).isEqualTo(new SliceAllotment(33, false));
        assertThat(SliceAllotment.of(slice(0), SKU, 100, transfers)).isEqualTo(new SliceAllotment(34, false));
    }

    @Test
    void transfersOfOtherSkusOrSalesArePassedOver() {
        List<StockTransfer> transfers = List.of(requested(1, new SkuId("other"), 0, 2, 20).taken(12),
                StockTransfer.requested(2, new ActivityId("b"), SKU, 0, 2, 20, AT));

        assertThat(SliceAllotment.of(slice(0), SKU, 100, transfers)).isEqualTo(new SliceAllotment(34, false));
    }

    @Test
    void manyDoneTransfersBothWays_keepTheSumOfTheSlicesAtTheStock() {
        List<StockTransfer> transfers = List.of(
                requested(1, SKU, 0, 1, 10).taken(10).done(),
                requested(2, SKU, 1, 2, 30).taken(25).done(),
                requested(3, SKU, 2, 0, 7).taken(7).done());
        long sum = 0;
        for (int k = 0; k < 3; k++) {
            sum += SliceAllotment.of(slice(k), SKU, 100, transfers).units();
        }
        assertThat(sum).isEqualTo(100);
        assertThat(SliceAllotment.of(slice(1), SKU, 100, transfers).units()).isEqualTo(33 + 10 - 25);
    }

    @Test
    void transfersThatTookMoreThanTheSliceWasGiven_areAnErrorNotANegativeAllotment() {
        List<StockTransfer> transfers = List.of(requested(1, SKU, 2, 0, 50).taken(50).done());

        assertThatThrownBy(() -> SliceAllotment.of(slice(2), SKU, 100, transfers))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("slice 2");
    }
}
