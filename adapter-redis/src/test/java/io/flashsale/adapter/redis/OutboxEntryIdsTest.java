package io.flashsale.adapter.redis;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OutboxEntryIdsTest {

    private static final ActivityId SALE = new ActivityId("sale-1");
    private static final String STREAM_ID = "1733500000000-7";

    @Test
    void givenSliceZero_thenTheEntryIdIsTheStreamIdAsItIs_whateverTheCount() {
        assertThat(OutboxEntryIds.of(RedisKeys.sliceZero(SALE), STREAM_ID)).isEqualTo(STREAM_ID);
        assertThat(OutboxEntryIds.of(new SaleSlice(SALE, 0, new SaleSlices(3)), STREAM_ID)).isEqualTo(STREAM_ID);
        assertThat(OutboxEntryIds.sliceOf(SALE, STREAM_ID)).isEqualTo(RedisKeys.sliceZero(SALE));
        assertThat(OutboxEntryIds.streamId(STREAM_ID)).isEqualTo(STREAM_ID);
    }

    @ParameterizedTest(name = "slice {0} of 64")
    @ValueSource(ints = {1, 2, 9, 10, 63})
    void givenSliceK_thenTheEntryIdNamesItsSlice_andReadsBackToTheSliceAndTheStreamId(int k) {
        var slice = new SaleSlice(SALE, k, new SaleSlices(64));

        String entryId = OutboxEntryIds.of(slice, STREAM_ID);

        assertThat(entryId).isEqualTo(k + "of64:" + STREAM_ID);
        assertThat(OutboxEntryIds.sliceOf(SALE, entryId)).isEqualTo(slice);
        assertThat(OutboxEntryIds.streamId(entryId)).isEqualTo(STREAM_ID);
    }

    @Test
    void givenTheSameStreamIdInTwoSlices_thenTheirEntryIdsDiffer() {
        var three = new SaleSlices(3);

        assertThat(OutboxEntryIds.of(new SaleSlice(SALE, 1, three), STREAM_ID))
                .isNotEqualTo(OutboxEntryIds.of(new SaleSlice(SALE, 2, three), STREAM_ID))
                .isNotEqualTo(OutboxEntryIds.of(new SaleSlice(SALE, 0, three), STREAM_ID));
    }

    @ParameterizedTest
    @ValueSource(strings = {"x:1-0", "1:1-0", "of3:1-0", "3of3:1-0", "1of1:1-0", "1of65:1-0", "aofb:1-0"})
    void givenAnIdNamingNoSliceOfASale_thenItIsRefused(String entryId) {
        assertThatThrownBy(() -> OutboxEntryIds.sliceOf(SALE, entryId)).isInstanceOf(IllegalArgumentException.class);
    }
}
