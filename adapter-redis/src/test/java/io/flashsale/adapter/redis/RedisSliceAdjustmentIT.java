package io.flashsale.adapter.redis;

import io.flashsale.application.reconciliation.port.out.SliceAdjustmentPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.stock.LedgerAdjustment;
import io.flashsale.domain.stock.StockLedger;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Instant;
import java.util.List;

import static io.flashsale.adapter.redis.SlicedSale.THREE;
import static io.flashsale.adapter.redis.SlicedSale.buyerAt;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each slice's part of an audited stock adjustment of a sale in slices (ADR 112) on the real Redis, standalone or the
 * cluster: applied once to that slice's ledger alone, never taking units a buyer holds, marked applied even when the
 * part is 0. A sale of three slices ({@link SlicedSale}): PLAIN 30 units, 10 a slice.
 */
@Timeout(60)
class RedisSliceAdjustmentIT {

    private static final SkuId PLAIN = new SkuId("plain");
    private static final Instant NOW = Instant.now();

    private final RedisClusterCommands<String, String> redis = SharedRedis.commands();
    private final RedisStockReservationAdapter adapter = SharedRedis.adapter();
    private final SliceAdjustmentPort adjustments = SharedRedis.adjustments();
    private final SliceFixture fixture = new SliceFixture(redis);
    private final Activity sale = SlicedSale.sale(SlicedSale.newId("rsa"), "sliced adjustment", NOW, THREE,
            ActivityItem.of(PLAIN.value(), 30));
    private final List<SaleSlice> slices = SliceFixture.slicesOf(sale);

    @AfterEach
    void forget() {
        fixture.forget(sale);
        SharedRedis.forget(sale.id());
    }

    @Test
    void givenAPart_thenOnlyItsSliceMoves_once() {
        adapter.warmUp(sale);

        assertThat(adjustments.adjust(slices.get(1), PLAIN, 2, 71))
                .isEqualTo(new LedgerAdjustment.Applied(new StockLedger(12, 0, 0)));
        assertThat(adjustments.adjust(slices.get(1), PLAIN, 2, 71)).isEqualTo(new LedgerAdjustment.AlreadyApplied());

        assertThat(fixture.ledger(slices.get(1), PLAIN)).isEqualTo(new StockLedger(12, 0, 0));
        assertThat(fixture.ledger(slices.get(0), PLAIN)).isEqualTo(new StockLedger(10, 0, 0));
        assertThat(fixture.ledger(slices.get(2), PLAIN)).isEqualTo(new StockLedger(10, 0, 0));
        assertThat(fixture.field(slices.get(1), RedisKeys.adjustmentField(PLAIN, 71))).isEqualTo("1");
        assertThat(fixture.field(slices.get(0), RedisKeys.adjustmentField(PLAIN, 71))).isNull();
    }

    @Test
    void givenAReductionAboveWhatTheSliceHasAvailable_thenRefused_andNothingMoves() {
        adapter.warmUp(sale);
        SlicedSale.reserved(adapter, SlicedSale.attempt(sale, buyerAt(THREE, 2, "ann"), "k1", NOW,
                new ReservationLine(PLAIN, 2)));

        assertThat(adjustments.adjust(slices.get(2), PLAIN, -9, 72)).isEqualTo(new LedgerAdjustment.Refused(8));

        assertThat(fixture.ledger(slices.get(2), PLAIN)).isEqualTo(new StockLedger(10, 2, 0));
        assertThat(fixture.field(slices.get(2), RedisKeys.adjustmentField(PLAIN, 72))).as("asked again later")
                .isNull();
        assertThat(adjustments.adjust(slices.get(2), PLAIN, -8, 72))
                .isEqualTo(new LedgerAdjustment.Applied(new StockLedger(2, 2, 0)));
    }

    @Test
    void givenAPartOfZero_thenTheAdjustmentIsMarkedApplied_andNothingMoves() {
        adapter.warmUp(sale);

        assertThat(adjustments.adjust(slices.get(0), PLAIN, 0, 73))
                .isEqualTo(new LedgerAdjustment.Applied(new StockLedger(10, 0, 0)));

        assertThat(fixture.field(slices.get(0), RedisKeys.adjustmentField(PLAIN, 73))).isEqualTo("1");
    }

    @Test
    void givenASliceNotLoaded_thenNotLoaded_andTheOthersStillTakeTheirParts() {
        adapter.warmUp(sale);
        fixture.forget(slices.get(1));

        assertThat(adjustments.adjust(slices.get(1), PLAIN, 1, 74)).isEqualTo(new LedgerAdjustment.NotLoaded());
        assertThat(adjustments.adjust(slices.get(2), PLAIN, 1, 74))
                .isEqualTo(new LedgerAdjustment.Applied(new StockLedger(11, 0, 0)));
    }
}
