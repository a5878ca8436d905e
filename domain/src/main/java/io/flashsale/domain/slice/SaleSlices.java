package io.flashsale.domain.slice;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.shared.Require;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.stream.IntStream;

/**
 * How many slices a sale is cut into (ADR 109): each slice is a hash slot of its own holding a share of every SKU's
 * stock and every fact of the buyers whose home it is. Fixed when the sale is created; one slice is a sale as it was
 * before slices.
 */
public record SaleSlices(int count) {

    public static final int MAX = 64;
    public static final SaleSlices ONE = new SaleSlices(1);

    public SaleSlices {
        Require.inRange(count, 1, MAX, "slices");
    }

    /**
     * The buyer's home slice: the first 32-bit word of the SHA-1 of the buyer id, unsigned, mod the count (the request
     * index's bucket rule, ADR 100), so every instance and every script finds the same slice from the id alone.
     */
    public int homeOf(BuyerId buyerId) {
        if (count == 1) {
            return 0;
        }
        byte[] digest = sha1().digest(buyerId.value().getBytes(StandardCharsets.UTF_8));
        long firstWord = ((digest[0] & 0xFFL) << 24) | ((digest[1] & 0xFFL) << 16) | ((digest[2] & 0xFFL) << 8)
                | (digest[3] & 0xFFL);
        return (int) (firstWord % count);
    }

    /** A slice's share of {@code units} split evenly: {@code units / count} each, the remainder to the first slices. */
    public long shareOf(int slice, long units) {
        requireSlice(slice, "slice");
        Require.inRange(units, 0, Long.MAX_VALUE, "units");
        return units / count + (slice < units % count ? 1 : 0);
    }

    /** {@code slice} if it names one of this sale's slices. */
    public int requireSlice(int slice, String field) {
        return Require.inRange(slice, 0, count - 1, field);
    }

    /** Every slice of the sale, slice 0 first. */
    public List<SaleSlice> of(ActivityId activityId) {
        return IntStream.range(0, count).mapToObj(k -> new SaleSlice(activityId, k, this)).toList();
    }

    public boolean sliced() {
        return count > 1;
    }

    private static MessageDigest sha1() {
        try {
            return MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-1", e);
        }
    }
}
