package io.flashsale.domain.slice;

import io.flashsale.domain.reconciliation.RecordedAdjustment;
import io.flashsale.domain.shared.Require;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What an audited stock adjustment of a SKU changes in each slice of a sale in slices (ADR 112): the slice's share of
 * the total after it, less its share of the total before. The parts of the slices add up to the adjustment, and after
 * it every slice's share is its share of the new total, so a slice's allotment stays its share of the SKU's stock
 * with the transfers (ADR 110), whatever adjustments were made; nothing per slice needs recording in the database.
 */
public final class SliceAdjustments {

    private SliceAdjustments() {
    }

    /** The slice's part of an adjustment by {@code delta} of a total of {@code stockBefore}. */
    public static long partOf(SaleSlice slice, long stockBefore, long delta) {
        Require.inRange(stockBefore, 0, Long.MAX_VALUE, "stockBefore");
        long after = stockBefore + delta;
        Require.inRange(after, 0, Long.MAX_VALUE, "stock after the adjustment");
        SaleSlices slices = slice.slices();
        return slices.shareOf(slice.index(), after) - slices.shareOf(slice.index(), stockBefore);
    }

    /**
     * The SKU's adjustments as the slice sees them: each delta replaced by the slice's part of it. The total before
     * each is worked back from the total now through every adjustment after it, so {@code adjustments} must be all of
     * the SKU's, as the database applied them (in id order, each on the total the one before left).
     *
     * @param stockNow the SKU's total now, every adjustment included
     */
    public static List<RecordedAdjustment> asSeenBy(SaleSlice slice, long stockNow,
                                                    List<RecordedAdjustment> adjustments) {
        List<RecordedAdjustment> newestFirst = adjustments.stream()
                .sorted(Comparator.comparingLong(RecordedAdjustment::id).reversed()).toList();
        List<RecordedAdjustment> seen = new ArrayList<>(adjustments.size());
        long after = stockNow;
        for (RecordedAdjustment adjustment : newestFirst) {
            long before = after - adjustment.delta();
            seen.addFirst(new RecordedAdjustment(adjustment.id(), partOf(slice, before, adjustment.delta()),
                    adjustment.createdAt()));
            after = before;
        }
        return seen;
    }
}
