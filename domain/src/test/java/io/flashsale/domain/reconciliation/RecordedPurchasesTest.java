package io.flashsale.domain.reconciliation;

import io.flashsale.domain.reservation.BuyerId;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RecordedPurchasesTest {

    private static final BuyerId ANN = new BuyerId("ann");
    private static final BuyerId BOB = new BuyerId("bob");
    private static final BuyerId CID = new BuyerId("cid");

    @Test
    void givenEveryBuyerRead_thenTheSumIsTheirsZerosAreLeftOutAndAnUnknownBuyerHoldsNothing() {
        RecordedPurchases every = RecordedPurchases.complete(Map.of(ANN, 2L, BOB, 0L));

        assertThat(every.units()).isEqualTo(2);
        assertThat(every.all()).isEqualTo(Map.of(ANN, 2L));
        assertThat(every.of(CID)).isZero();
    }

    @Test
    void givenSomeBuyersRead_thenTheyAreKnownWithZeroForNoneAndAnyOtherBuyerIsRefused() {
        RecordedPurchases some = RecordedPurchases.some(7, List.of(ANN, BOB), Map.of(ANN, 2L));

        assertThat(some.units()).isEqualTo(7);
        assertThat(some.of(ANN)).isEqualTo(2);
        assertThat(some.of(BOB)).isZero();
        assertThatThrownBy(() -> some.of(CID)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(some::all).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void givenUnitsOfABuyerNobodyAskedAbout_orNegativeUnits_orASumThatDoesNotAddUp_thenRefused() {
        assertThatThrownBy(() -> RecordedPurchases.some(2, List.of(ANN), Map.of(BOB, 2L)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RecordedPurchases.some(-1, List.of(), Map.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RecordedPurchases(3, Map.of(ANN, 2L), true))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
