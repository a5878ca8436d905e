package io.flashsale.adapter.redis.internal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AcceptedRequestsFilterTest {

    @Test
    void aSaleOfAThousandUnitsGetsSixteenBitsAndFiveHashesForEachOfTwelveHundredFiftyKeys() {
        AcceptedRequestsFilter.Size size = AcceptedRequestsFilter.Size.forUnits(1_000);

        assertThat(size.bits()).isEqualTo(20_032).isEqualTo(size.bits() / 64 * 64);
        assertThat(size.hashes()).isEqualTo(5);
    }

    @Test
    void aKeysWordLiesInsideTheBitsAndItsMaskHasAtMostOneBitPerHash() {
        for (int i = 0; i < 10_000; i++) {
            AcceptedRequestsFilter.Word word = AcceptedRequestsFilter.Word.of("buyer-" + i + ":r" + i, 20_032, 5);

            assertThat(word.index()).isBetween(0L, 20_032L / 32 - 1);
            assertThat(Integer.bitCount(word.mask())).isBetween(1, 5);
            assertThat(word.offset()).isEqualTo("#" + (word.index() + 2));
            assertThat(Long.parseLong(word.maskText())).isEqualTo(Integer.toUnsignedLong(word.mask()));
        }
    }

    @Test
    void aTinySaleGetsTheFloorAndAHugeOneTheCap() {
        assertThat(AcceptedRequestsFilter.Size.forUnits(0)).isEqualTo(new AcceptedRequestsFilter.Size(1_024, 6));
        assertThat(AcceptedRequestsFilter.Size.forUnits(3).bits()).isEqualTo(1_024);
        AcceptedRequestsFilter.Size huge = AcceptedRequestsFilter.Size.forUnits(Long.MAX_VALUE);
        assertThat(huge.bits()).isEqualTo(1L << 24);
        assertThat(huge.hashes()).isEqualTo(1);
    }

    @Test
    void aValueCutShortOrWithoutAHeaderIsNoFilter() {
        byte[] header = {0, 0, 4, 0, 7, 1, 0, 0};

        assertThat(AcceptedRequestsFilter.of(null)).isEmpty();
        assertThat(AcceptedRequestsFilter.of(new byte[] {0, 0, 4})).isEmpty();
        assertThat(AcceptedRequestsFilter.of(java.util.Arrays.copyOf(new byte[] {0, 0, 4, 0, 7, 1, 2, 0}, 8 + 128)))
                .as("a layout this version does not know").isEmpty();
        assertThat(AcceptedRequestsFilter.of(header)).as("1024 bits announced, none there").isEmpty();
        assertThat(AcceptedRequestsFilter.of(java.util.Arrays.copyOf(header, 8 + 128))).isPresent();
    }
}
