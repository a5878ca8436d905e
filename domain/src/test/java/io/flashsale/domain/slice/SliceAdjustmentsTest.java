package io.flashsale.domain.slice;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reconciliation.RecordedAdjustment;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SliceAdjustmentsTest {

    private static final ActivityId SALE = new ActivityId("sale");
    private static final SaleSlices THREE = new SaleSlices(3);
    private static final Instant AT = Instant.parse("2030-01-01T00:00:00Z");

    private static SaleSlice slice(int k) {
        return new SaleSlice(SALE, k, THREE);
    }

    private static long[] parts(long before, long delta) {
        return IntStream.range(0, 3).mapToLong(k -> SliceAdjustments.partOf(slice(k), before, delta)).toArray();
    }

    @Test
    void theSlicesPartsAddUpToTheAdjustment_andLeaveEachSliceItsShareOfTheNewTotal() {
        for (long before = 0; before <= 40; before++) {
            for (long delta = -before; delta <= 40; delta++) {
                long[] parts = parts(before, delta);
                assertThat(parts[0] + parts[1] + parts[2]).as("%d %+d", before, delta).isEqualTo(delta);
                for (int k = 0; k < 3; k++) {
                    assertThat(THREE.shareOf(k, before) + parts[k]).isEqualTo(THREE.shareOf(k, before + delta));
                    assertThat(Long.signum(parts[k]) * Long.signum(delta)).as("no part against the adjustment")
                            .isGreaterThanOrEqualTo(0);
                }
            }
        }
    }

    @Test
    void givenThirtyUnits_thenAddingOneGoesToTheFirstSlice_andTakingFourTakesTwoFromTheLastAndOneEachFromTheOthers() {
        assertThat(parts(30, 1)).containsExactly(1, 0, 0);
        assertThat(parts(30, -4)).containsExactly(-1, -1, -2);
    }

    @Test
    void anAdjustmentBelowZeroIsRefused() {
        assertThatThrownBy(() -> SliceAdjustments.partOf(slice(0), 3, -4)).isInstanceOf(RuntimeException.class);
    }

    @Test
    void theAdjustmentsAsASliceSeesThem_areWorkedBackFromTheTotalNow() {
        // 30 units, then +1 (31), then -4 (27), then +5 (32).
        List<RecordedAdjustment> recorded = List.of(new RecordedAdjustment(7, 1, AT),
                new RecordedAdjustment(9, -4, AT), new RecordedAdjustment(12, 5, AT));

        List<RecordedAdjustment> lastSlice = SliceAdjustments.asSeenBy(slice(2), 32, recorded);

        assertThat(lastSlice).extracting(RecordedAdjustment::id).containsExactly(7L, 9L, 12L);
        assertThat(lastSlice).extracting(RecordedAdjustment::delta).containsExactly(0L, -1L, 1L);
        assertThat(THREE.shareOf(2, 30) + lastSlice.stream().mapToLong(RecordedAdjustment::delta).sum())
                .isEqualTo(THREE.shareOf(2, 32));
    }
}
