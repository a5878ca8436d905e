package io.flashsale.adapter.redis;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** A read's {@code max} spread over a sale's slices: at most max in all, each slice its share, the rest to the busy. */
class SliceSharesTest {

    private static final ActivityId SALE = new ActivityId("sale-1");

    private final SliceShares shares = new SliceShares();
    /** What each slice was asked for, read by read. */
    private final List<Map<Integer, Integer>> asked = new ArrayList<>();

    @Test
    void sharesAreEven_theRemainderOneEachFromTheFirst() {
        assertThat(SliceShares.shares(10, 3, 0)).containsExactly(4, 3, 3);
        assertThat(SliceShares.shares(10, 3, 2)).containsExactly(3, 3, 4);
        assertThat(SliceShares.shares(11, 3, 2)).containsExactly(4, 3, 4);
        assertThat(SliceShares.shares(2, 3, 1)).containsExactly(0, 1, 1);
        assertThat(SliceShares.shares(7, 1, 0)).containsExactly(7);
    }

    @Test
    void givenOneSlice_thenOneReadOfMax_asBeforeSlices() {
        Map<SaleSlice, List<Integer>> read = read(slices(1), 100, new long[] {30});

        assertThat(asked).containsExactly(Map.of(0, 100));
        assertThat(read.get(slice(0, 1))).hasSize(30);
    }

    @Test
    void givenEverySliceBusy_thenEachGivesItsShare_andNoMoreThanMaxInAll() {
        long[] waiting = {1_000, 1_000, 1_000};

        for (int round = 0; round < 3; round++) {
            Map<SaleSlice, List<Integer>> read = read(slices(3), 100, waiting);

            assertThat(read.values().stream().mapToInt(List::size).sum()).isEqualTo(100);
            assertThat(read.values()).allSatisfy(given -> assertThat(given.size()).isBetween(33, 34));
        }
        assertThat(asked).as("one round a read: every slice gave all it was asked").allSatisfy(
                round -> assertThat(round).hasSize(3));
        assertThat(asked.stream().map(round -> round.entrySet().stream().filter(share -> share.getValue() == 34)
                .findFirst().orElseThrow().getKey()).toList()).as("the remainder goes round")
                .containsExactly(0, 1, 2);
    }

    @Test
    void givenOneBusySlice_thenItTakesTheRoomTheIdleOnesLeft() {
        long[] waiting = {0, 500, 2};

        Map<SaleSlice, List<Integer>> read = read(slices(3), 99, waiting);

        assertThat(read.get(slice(1, 3))).hasSize(97);
        assertThat(read.get(slice(2, 3))).hasSize(2);
        assertThat(read).doesNotContainKey(slice(0, 3));
    }

    @Test
    void givenFewerThanTheSlices_thenEverySliceIsAskedInTurn_soNoneStarves() {
        long[] waiting = {1_000, 1_000, 1_000, 1_000};
        Map<Integer, Integer> given = new HashMap<>();

        for (int round = 0; round < 8; round++) {
            read(slices(4), 1, waiting).forEach((slice, entries) -> given.merge(slice.index(), entries.size(),
                    Integer::sum));
        }

        assertThat(given).containsExactlyInAnyOrderEntriesOf(Map.of(0, 2, 1, 2, 2, 2, 3, 2));
    }

    @Test
    void givenTheSliceInTurnIdle_thenTheRoomGoesToASliceNotAskedYet() {
        long[] waiting = {0, 0, 5};

        Map<SaleSlice, List<Integer>> read = read(slices(3), 1, waiting);

        assertThat(read.get(slice(2, 3))).hasSize(1);
    }

    /** A read over slices holding {@code waiting} entries each, taking what it gives from them. */
    private Map<SaleSlice, List<Integer>> read(List<SaleSlice> slices, int max, long[] waiting) {
        Map<Integer, Integer> round = new HashMap<>();
        asked.add(round);
        return shares.read(slices, max, (slice, share) -> {
            assertThat(share).as("never asked for none").isPositive();
            round.merge(slice.index(), share, Integer::sum);
            int given = (int) Math.min(share, waiting[slice.index()]);
            waiting[slice.index()] -= given;
            return IntStream.range(0, given).boxed().toList();
        });
    }

    private static List<SaleSlice> slices(int count) {
        return IntStream.range(0, count).mapToObj(k -> slice(k, count)).toList();
    }

    private static SaleSlice slice(int k, int count) {
        return new SaleSlice(SALE, k, new SaleSlices(count));
    }
}
