package io.flashsale.domain.slice;

import io.flashsale.domain.shared.InvalidValueException;
import io.flashsale.domain.slice.SliceRebalance.Move;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SliceRebalanceTest {

    private static List<SliceDemand> slices(long[][] availableAndTaken) {
        List<SliceDemand> slices = new ArrayList<>();
        for (int k = 0; k < availableAndTaken.length; k++) {
            slices.add(new SliceDemand(k, availableAndTaken[k][0], availableAndTaken[k][1]));
        }
        return slices;
    }

    @Test
    void givenEqualSharesAndNoDemandYet_thenNothingMoves() {
        assertThat(SliceRebalance.plan(slices(new long[][] {{334, 0}, {333, 0}, {333, 0}}), 1_000)).isEmpty();
    }

    @Test
    void givenASliceWhoseBuyersEmptiedIt_thenItGetsItsShareFromTheRichest() {
        List<Move> moves = SliceRebalance.plan(slices(new long[][] {{300, 10}, {0, 40}, {500, 10}}), 1_000);

        // 800 left, taken 10:40:10, so shares 134, 533, 133 (the unit rounding left to slice 0): slice 2 has the
        // most to spare (367), slice 0 the rest of what slice 1 lacks (166 of its 166 to spare).
        assertThat(moves).containsExactly(new Move(2, 1, 367), new Move(0, 1, 166));
    }

    @Test
    void givenEverySliceSoldOut_thenNothingMoves() {
        assertThat(SliceRebalance.plan(slices(new long[][] {{0, 5}, {0, 9}, {0, 0}}), 1_000)).isEmpty();
    }

    @Test
    void givenASliceShortOfLessThanABatch_thenAWholeBatchMovesIfTheGiverCanSpareIt() {
        // Stock 10,000: a batch is 100. Slice 0 holds 50 (its share is 60 at 6:4 demand), slice 1 plenty.
        List<Move> moves = SliceRebalance.plan(slices(new long[][] {{50, 60}, {5_000, 40}}), 10_000);

        assertThat(moves).containsExactly(new Move(1, 0, 2_980));
    }

    @Test
    void givenAGiverWithLessThanABatchToSpare_thenItGivesOnlyWhatItHasAboveItsShare() {
        List<Move> moves = SliceRebalance.plan(slices(new long[][] {{0, 1}, {30, 1}}), 10_000);

        assertThat(moves).containsExactly(new Move(1, 0, 15));
    }

    @Test
    void givenSlicesNotListedInOrder_thenRefused() {
        assertThatThrownBy(() -> SliceRebalance.plan(List.of(new SliceDemand(1, 5, 0), new SliceDemand(0, 5, 0)), 10))
                .isInstanceOf(InvalidValueException.class);
    }

    @Test
    void givenAnyFigures_thenMovesKeepEveryUnitNeverTakeMoreThanAGiverHoldsAndAreAtMostTwicePerSlice() {
        SplittableRandom random = new SplittableRandom(20261206L);
        for (int round = 0; round < 5_000; round++) {
            int n = 1 + random.nextInt(8);
            long[][] figures = new long[n][2];
            long left = 0;
            for (int k = 0; k < n; k++) {
                figures[k][0] = random.nextInt(4) == 0 ? 0 : random.nextLong(2_000);
                figures[k][1] = random.nextInt(3) == 0 ? 0 : random.nextLong(500);
                left += figures[k][0];
            }
            long stock = left + random.nextLong(10_000);
            List<SliceDemand> slices = slices(figures);
            long[] after = new long[n];
            for (int k = 0; k < n; k++) {
                after[k] = figures[k][0];
            }

            List<Move> moves = SliceRebalance.plan(slices, stock);

            assertThat(moves.size()).as("round %d", round).isLessThanOrEqualTo(2 * n);
            for (Move move : moves) {
                assertThat(after[move.from()]).as("round %d: %s", round, move).isGreaterThanOrEqualTo(move.units());
                after[move.from()] -= move.units();
                after[move.to()] += move.units();
            }
            long sum = 0;
            for (long units : after) {
                assertThat(units).isNotNegative();
                sum += units;
            }
            assertThat(sum).as("round %d", round).isEqualTo(left);
        }
    }
}
