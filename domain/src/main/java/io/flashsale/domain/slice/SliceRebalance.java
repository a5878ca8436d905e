package io.flashsale.domain.slice;

import io.flashsale.domain.shared.InvalidValueException;
import io.flashsale.domain.shared.Require;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Where one SKU's available units should move between a sale's slices so that each holds about its buyers' share of
 * the demand (ADR 109). A slice is short when it holds less than its buyers take in {@link #HORIZON_LOOKS} looks (at
 * least one batch) and less than its share of what is left; it gets units from the slice with the most above its own
 * share. Moves are at least a batch (1% of the SKU's stock) or what the giver has above its share, so their number
 * is bounded by the sale, not by its buyers. With no demand seen anywhere, shares are equal.
 */
public final class SliceRebalance {

    /** How many of the rebalancer's looks a slice's units should last at the pace its buyers take them. */
    public static final int HORIZON_LOOKS = 2;

    private SliceRebalance() {
    }

    /** One move the rebalancer asks for: {@code units} of the SKU from slice {@code from} to slice {@code to}. */
    public record Move(int from, int to, long units) {

        public Move {
            if (from == to) {
                throw new InvalidValueException("to", "must be another slice than from");
            }
            Require.inRange(units, 1, Long.MAX_VALUE, "units");
        }
    }

    /**
     * The moves that bring short slices up to their share, the shortest first, each from the slice then most above its
     * share; none when every slice holds enough or no slice has units to spare. At most twice as many moves as slices.
     *
     * @param stock the SKU's stock in the whole sale: a batch is 1% of it
     */
    public static List<Move> plan(List<SliceDemand> slices, long stock) {
        Require.present(slices, "slices");
        Require.inRange(stock, 0, Long.MAX_VALUE, "stock");
        int n = slices.size();
        long[] available = new long[n];
        long left = 0;
        long takenEverywhere = 0;
        for (int k = 0; k < n; k++) {
            SliceDemand demand = slices.get(k);
            if (demand.slice() != k) {
                throw new InvalidValueException("slices", "must be listed in order, slice " + k + " at " + k);
            }
            available[k] = demand.available();
            left += demand.available();
            takenEverywhere += demand.taken();
        }
        long batch = Math.max(1, (stock + 99) / 100);
        long[] share = shares(slices, left, takenEverywhere);
        List<Move> moves = new ArrayList<>();
        List<Integer> shortFirst = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            long need = Math.max(batch, slices.get(k).taken() * HORIZON_LOOKS);
            if (available[k] < need && available[k] < share[k]) {
                shortFirst.add(k);
            }
        }
        shortFirst.sort(Comparator.comparingLong(k -> available[k] - share[k]));
        for (int poor : shortFirst) {
            // From the richest first, until the slice holds its share or nobody has units to spare: each move either
            // fills the slice or empties a giver's spare, so a plan has at most 2n moves.
            while (available[poor] < share[poor]) {
                int rich = richest(available, share);
                long spare = available[rich] - share[rich];
                if (rich == poor || spare <= 0) {
                    break;
                }
                long units = Math.min(spare, Math.max(batch, share[poor] - available[poor]));
                moves.add(new Move(rich, poor, units));
                available[rich] -= units;
                available[poor] += units;
            }
        }
        return List.copyOf(moves);
    }

    /** Each slice's share of the units left, in proportion to what its buyers took (equal when nobody took any). */
    private static long[] shares(List<SliceDemand> slices, long left, long takenEverywhere) {
        int n = slices.size();
        long[] share = new long[n];
        long given = 0;
        for (int k = 0; k < n; k++) {
            share[k] = takenEverywhere == 0 ? left / n
                    : (long) ((double) left * slices.get(k).taken() / takenEverywhere);
            given += share[k];
        }
        // What rounding left over goes to the slices in order, one each, so the shares sum to what is left.
        for (int k = 0; given < left; k = (k + 1) % n) {
            if (takenEverywhere == 0 || slices.get(k).taken() > 0) {
                share[k]++;
                given++;
            }
        }
        return share;
    }

    private static int richest(long[] available, long[] share) {
        int richest = 0;
        for (int k = 1; k < available.length; k++) {
            if (available[k] - share[k] > available[richest] - share[richest]) {
                richest = k;
            }
        }
        return richest;
    }
}
