package io.flashsale.adapter.redis;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class SliceTagsTest {

    private static final List<ActivityId> SALES = IntStream.range(0, 40)
            .mapToObj(i -> new ActivityId("sale-" + i)).toList();

    @ParameterizedTest(name = "{0} slices")
    @ValueSource(ints = {1, 2, 3, 8, 64})
    void givenNSlices_thenTheirTagsLandInNDistinctSlotRanges(int count) {
        for (ActivityId sale : SALES) {
            List<Integer> ranges = tags(sale, count).stream()
                    .map(tag -> SliceTags.rangeOf(SliceTags.slotOf(tag), count)).toList();

            assertThat(ranges).as("%s in %d slices", sale, count).doesNotHaveDuplicates().hasSize(count);
        }
    }

    @ParameterizedTest(name = "{0} slices")
    @ValueSource(ints = {2, 3, 8, 64})
    void sliceKTakesTheKthOfTheOtherRangesInOrder_withTheSmallestSaltThatLandsThere(int count) {
        for (ActivityId sale : SALES) {
            List<String> tags = tags(sale, count);
            int home = SliceTags.rangeOf(SliceTags.slotOf(sale.value()), count);
            List<Integer> others = IntStream.range(0, count).filter(range -> range != home).boxed().toList();

            for (int k = 1; k < count; k++) {
                String tag = tags.get(k);
                String prefix = sale.value() + "#" + k + ".";
                assertThat(tag).startsWith(prefix);
                int salt = Integer.parseInt(tag.substring(prefix.length()));
                assertThat(SliceTags.rangeOf(SliceTags.slotOf(tag), count)).isEqualTo(others.get(k - 1));
                for (int smaller = 0; smaller < salt; smaller++) {
                    assertThat(SliceTags.rangeOf(SliceTags.slotOf(prefix + smaller), count))
                            .as("salt %d of %s", smaller, tag).isNotEqualTo(others.get(k - 1));
                }
            }
        }
    }

    @ParameterizedTest(name = "{0} slices")
    @ValueSource(ints = {1, 3, 8, 64})
    void sliceZeroKeepsTheSalesKeysOfToday(int count) {
        ActivityId sale = new ActivityId("sale-7");
        SaleSlice zero = new SaleSlice(sale, 0, new SaleSlices(count));

        assertThat(RedisKeys.tag(zero)).isEqualTo("sale-7");
        assertThat(RedisKeys.meta(zero)).isEqualTo("fs:{sale-7}:meta").isEqualTo(RedisKeys.meta(sale));
        assertThat(RedisKeys.stock(zero)).isEqualTo("fs:{sale-7}:stock").isEqualTo(RedisKeys.stock(sale));
        assertThat(RedisKeys.archiveKeys(zero)).isEqualTo(RedisKeys.archiveKeys(sale));
    }

    @Test
    void theTagsFollowFromTheSaleAndItsCountAlone() {
        ActivityId sale = new ActivityId("sale-7");

        assertThat(tags(sale, 8)).isEqualTo(tags(new ActivityId("sale-7"), 8))
                .isEqualTo(SliceTags.computed(sale, 8));
        // Pinned: every instance, before and after a restart or an upgrade, must find the sale's slices here.
        assertThat(tags(sale, 3)).containsExactly("sale-7", "sale-7#1.3", "sale-7#2.0");
        assertThat(RedisKeys.meta(new SaleSlice(sale, 1, new SaleSlices(3)))).isEqualTo("fs:{sale-7#1.3}:meta");
        assertThat(RedisKeys.stock(new SaleSlice(sale, 7, new SaleSlices(8)))).isEqualTo("fs:{sale-7#7.13}:stock");
    }

    @Test
    void theRangesAreTheOnesRedisCliCutsForAsManyMasters() {
        // redis-cli --cluster create over 3 masters: 0-5460, 5461-10922, 10923-16383.
        assertThat(IntStream.range(0, 3).map(range -> SliceTags.rangeStart(range, 3)).toArray())
                .containsExactly(0, 5461, 10923);
        assertThat(SliceTags.rangeOf(5460, 3)).isZero();
        assertThat(SliceTags.rangeOf(5461, 3)).isEqualTo(1);
        assertThat(SliceTags.rangeOf(10922, 3)).isEqualTo(1);
        assertThat(SliceTags.rangeOf(10923, 3)).isEqualTo(2);
        assertThat(SliceTags.rangeOf(16383, 3)).isEqualTo(2);
        assertThat(SliceTags.rangeOf(0, 1)).isZero();
        assertThat(SliceTags.rangeOf(16383, 1)).isZero();
        for (int count : new int[] {2, 3, 7, 8, 64}) {
            for (int slot = 0; slot < SliceTags.SLOTS; slot++) {
                int range = SliceTags.rangeOf(slot, count);
                assertThat(slot).isBetween(SliceTags.rangeStart(range, count),
                        range + 1 < count ? SliceTags.rangeStart(range + 1, count) - 1 : SliceTags.SLOTS - 1);
            }
        }
    }

    @Test
    void everyKeyOfASliceCarriesItsTag() {
        SaleSlice slice = new SaleSlice(new ActivityId("sale-7"), 5, new SaleSlices(8));
        String tag = RedisKeys.tag(slice);
        List<String> keys = new ArrayList<>(RedisKeys.archiveKeys(slice));
        keys.addAll(RedisKeys.requestKeys(slice, 3));
        keys.add(RedisKeys.requestsDrop(slice));

        assertThat(tag).startsWith("sale-7#5.");
        assertThat(keys).allSatisfy(key -> assertThat(key).startsWith("fs:{" + tag + "}:"));
        assertThat(keys.stream().map(SlotHash::getSlot).distinct()).containsExactly(SliceTags.slotOf(tag));
    }

    private static List<String> tags(ActivityId sale, int count) {
        SaleSlices slices = new SaleSlices(count);
        return IntStream.range(0, count).mapToObj(k -> RedisKeys.tag(new SaleSlice(sale, k, slices))).toList();
    }
}
