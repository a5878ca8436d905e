package io.flashsale.domain.slice;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.shared.InvalidValueException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SaleSlicesTest {

    @ParameterizedTest
    @ValueSource(ints = {0, -1, 65})
    void givenACountOutsideOneTo64_thenItIsRefused(int count) {
        assertThatThrownBy(() -> new SaleSlices(count))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("slices");
    }

    @Test
    void givenOneSlice_thenEveryBuyerIsAtHomeInSliceZero() {
        assertThat(SaleSlices.ONE.homeOf(new BuyerId("buyer-1"))).isZero();
        assertThat(SaleSlices.ONE.sliced()).isFalse();
    }

    @Test
    void theSlicesOfASaleAreEverySliceOfItsCountInIndexOrder() {
        ActivityId sale = new ActivityId("sale-1");
        SaleSlices three = new SaleSlices(3);

        assertThat(three.of(sale)).containsExactly(new SaleSlice(sale, 0, three), new SaleSlice(sale, 1, three),
                new SaleSlice(sale, 2, three));
        assertThat(SaleSlices.ONE.of(sale)).containsExactly(new SaleSlice(sale, 0, SaleSlices.ONE));
    }

    @Test
    void theHomeSliceIsTheFirstWordOfTheBuyersSha1ModTheCount() {
        // First words computed apart: buyer-1 3401704051, alice 1378559850, b42 544382546.
        SaleSlices three = new SaleSlices(3);
        assertThat(three.homeOf(new BuyerId("buyer-1"))).isEqualTo(1);
        assertThat(three.homeOf(new BuyerId("alice"))).isEqualTo(0);
        assertThat(three.homeOf(new BuyerId("b42"))).isEqualTo(2);
        assertThat(new SaleSlices(64).homeOf(new BuyerId("buyer-1"))).isEqualTo(51);
    }

    @Test
    void givenManyBuyers_thenHomesSpreadEvenlyOverTheSlices() {
        SaleSlices slices = new SaleSlices(8);
        int[] homes = new int[8];
        IntStream.range(0, 80_000).forEach(i -> homes[slices.homeOf(new BuyerId("b" + i))]++);

        assertThat(IntStream.of(homes).boxed()).allSatisfy(count -> assertThat(count).isBetween(9_500, 10_500));
    }

    @Test
    void sharesSumToTheUnitsAndDifferByAtMostOne_theRemainderToTheFirstSlices() {
        SaleSlices three = new SaleSlices(3);

        assertThat(IntStream.range(0, 3).mapToLong(k -> three.shareOf(k, 10)).toArray()).containsExactly(4, 3, 3);
        assertThat(IntStream.range(0, 3).mapToLong(k -> three.shareOf(k, 2)).toArray()).containsExactly(1, 1, 0);
        assertThat(IntStream.range(0, 3).mapToLong(k -> three.shareOf(k, 9_999_999)).sum()).isEqualTo(9_999_999);
        assertThat(SaleSlices.ONE.shareOf(0, 7)).isEqualTo(7);
    }

    @Test
    void givenASliceTheSaleDoesNotHave_thenItIsRefused() {
        assertThatThrownBy(() -> new SaleSlices(3).shareOf(3, 10)).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> new SaleSlices(3).requireSlice(-1, "from")).hasMessageContaining("from");
    }
}
