package io.flashsale.application.slice.service;

import io.flashsale.application.shared.port.out.StoreUnavailableException;
import io.flashsale.application.slice.port.in.TransferStockUseCase;
import io.flashsale.application.slice.port.out.SliceStockPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import io.flashsale.domain.slice.StockTransfer;
import io.flashsale.domain.stock.SkuStock;
import io.flashsale.domain.stock.StockLedger;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class SliceRebalancerTest {

    private static final Instant NOW = Instant.parse("2026-11-11T00:00:30Z");
    private static final SkuId SKU = new SkuId("phone");

    /** Each slice's ledger of the sales' one SKU; a transfer moves available units, total and available together. */
    private static final class Shelves implements SliceStockPort, TransferStockUseCase {
        final Map<ActivityId, StockLedger[]> ledgers = new HashMap<>();
        final Set<ActivityId> down = new HashSet<>();
        final Set<Integer> unloaded = new HashSet<>();
        final List<String> moves = new ArrayList<>();

        void put(ActivityId sale, long... available) {
            StockLedger[] slices = new StockLedger[available.length];
            for (int k = 0; k < available.length; k++) {
                slices[k] = StockLedger.of(available[k]);
            }
            ledgers.put(sale, slices);
        }

        /** Buyers of the slice take units: they leave available as reserved. */
        void take(ActivityId sale, int slice, long units) {
            StockLedger[] slices = ledgers.get(sale);
            slices[slice] = slices[slice].reserve(units);
        }

        long available(ActivityId sale, int slice) {
            return ledgers.get(sale)[slice].available();
        }

        @Override
        public Optional<List<SkuStock>> stock(SaleSlice slice) {
            if (down.contains(slice.activityId())) {
                throw new StoreUnavailableException("redis down", null);
            }
            if (unloaded.contains(slice.index())) {
                return Optional.empty();
            }
            return Optional.of(List.of(new SkuStock(SKU, ledgers.get(slice.activityId())[slice.index()])));
        }

        @Override
        public StockTransfer transfer(ActivityId activityId, SkuId skuId, int from, int to, long units) {
            StockLedger[] slices = ledgers.get(activityId);
            long moved = Math.min(units, slices[from].available());
            slices[from] = slices[from].adjust(-moved);
            slices[to] = slices[to].adjust(moved);
            moves.add(activityId.value() + " " + from + "->" + to + ":" + units);
            return null;
        }

        @Override
        public OptionalLong take(SaleSlice slice, SkuId skuId, long transferId, long units) {
            throw new UnsupportedOperationException("the transfer above stands for take and credit");
        }

        @Override
        public boolean credit(SaleSlice slice, SkuId skuId, long transferId, long units) {
            throw new UnsupportedOperationException("the transfer above stands for take and credit");
        }

        @Override
        public OptionalLong available(SaleSlice slice, SkuId skuId) {
            throw new UnsupportedOperationException("the rebalancer reads whole slices");
        }
    }

    private static Activity sale(String id, int slices, long stock) {
        return new Activity(new ActivityId(id), "Double 11", NOW.minusSeconds(30), NOW.plusSeconds(3600),
                new PurchaseLimit(2), Duration.ofMinutes(15), List.of(new ActivityItem(SKU, stock, null, 1)), false,
                new SaleSlices(slices));
    }

    private final Shelves shelves = new Shelves();
    private final List<Activity> open = new ArrayList<>();
    private final SliceRebalancer rebalancer = new SliceRebalancer((from, to) -> List.copyOf(open), shelves,
            shelves, Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void givenNoDemandYet_whenASliceHoldsLessThanItsShare_thenUnitsMoveFromTheRichestToEqualShares() {
        Activity sale = sale("s1", 3, 150);
        open.add(sale);
        shelves.put(sale.id(), 100, 0, 50);

        assertThat(rebalancer.rebalance()).isEqualTo(1);

        assertThat(shelves.moves).containsExactly("s1 0->1:50");
        assertThat(List.of(shelves.available(sale.id(), 0), shelves.available(sale.id(), 1),
                shelves.available(sale.id(), 2))).containsExactly(50L, 50L, 50L);
    }

    @Test
    void givenOneSlicesBuyersTakingFaster_whenLookedAgain_thenItsShareGrowsWithItsDemand() {
        Activity sale = sale("s1", 3, 3000);
        open.add(sale);
        shelves.put(sale.id(), 1000, 1000, 1000);
        assertThat(rebalancer.rebalance()).isZero();

        // Slice 2's buyers took 900 since the first look, the others 50 each: slice 2 is short for two looks.
        shelves.take(sale.id(), 0, 50);
        shelves.take(sale.id(), 1, 50);
        shelves.take(sale.id(), 2, 900);
        rebalancer.rebalance();

        long left = 3000 - 1000;
        assertThat(shelves.available(sale.id(), 0) + shelves.available(sale.id(), 1)
                + shelves.available(sale.id(), 2)).as("units are moved, never made").isEqualTo(left);
        // Its share of what is left is 900/1000 of it.
        assertThat(shelves.available(sale.id(), 2)).isEqualTo(left * 900 / 1000);
        assertThat(shelves.moves).isNotEmpty().allSatisfy(move -> assertThat(move).contains("->2:"));
    }

    @Test
    void givenASliceNotLoaded_whenLooked_thenTheSaleIsLeftForTheNextLook() {
        Activity sale = sale("s1", 3, 150);
        open.add(sale);
        shelves.put(sale.id(), 150, 0, 0);
        shelves.unloaded.add(2);

        assertThat(rebalancer.rebalance()).isZero();
        assertThat(shelves.moves).isEmpty();
    }

    @Test
    void givenASaleOfOneSliceAndASaleWhoseStoreIsDown_whenLooked_thenOnlyTheReachableSaleInSlicesMoves() {
        Activity one = sale("one", 1, 100);
        Activity down = sale("down", 2, 100);
        Activity sliced = sale("sliced", 2, 100);
        open.addAll(List.of(one, down, sliced));
        shelves.put(one.id(), 100);
        shelves.put(down.id(), 100, 0);
        shelves.put(sliced.id(), 100, 0);
        shelves.down.add(down.id());

        assertThat(rebalancer.rebalance()).isEqualTo(1);

        assertThat(shelves.moves).containsExactly("sliced 0->1:50");
    }

    @Test
    void givenASaleThatClosed_whenLookedAgain_thenWhatItsBuyersTookIsForgotten() {
        Activity sale = sale("s1", 2, 2000);
        open.add(sale);
        shelves.put(sale.id(), 1000, 1000);
        rebalancer.rebalance();
        shelves.take(sale.id(), 1, 990);
        open.clear();
        rebalancer.rebalance();

        // Opened again (its window moved): the first look sees no demand, so the shares aim to be equal again;
        // remembered, the 990 taken would have given slice 1 the whole of what is left.
        open.add(sale);
        rebalancer.rebalance();

        assertThat(shelves.available(sale.id(), 0)).isEqualTo(505);
        assertThat(shelves.available(sale.id(), 1)).isEqualTo(505);
    }
}
