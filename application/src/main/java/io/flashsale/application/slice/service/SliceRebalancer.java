package io.flashsale.application.slice.service;

import io.flashsale.application.sale.port.out.ActivityWindowsPort;
import io.flashsale.application.shared.port.out.StoreUnavailableException;
import io.flashsale.application.slice.port.in.RebalanceSlicesUseCase;
import io.flashsale.application.slice.port.in.TransferStockUseCase;
import io.flashsale.application.slice.port.out.SliceStockPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SliceDemand;
import io.flashsale.domain.slice.SliceRebalance;
import io.flashsale.domain.stock.SkuStock;
import io.flashsale.domain.stock.StockLedger;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The rebalancer's look (ADR 109): for every open sale in slices, each slice's units of each SKU and what its buyers
 * took since the last look (what left the slice as reserved or sold: a transfer moves total and available together,
 * so it does not count), then the moves {@link SliceRebalance} plans, each as a stock transfer. A sale with a slice
 * not loaded is left for the next look: its figures would be half a sale's. What was taken is remembered here, so the
 * first look after a start (or on another runner) sees no demand and aims at equal shares.
 */
public class SliceRebalancer implements RebalanceSlicesUseCase {

    private static final System.Logger LOG = System.getLogger(SliceRebalancer.class.getName());

    private final ActivityWindowsPort windows;
    private final SliceStockPort slices;
    private final TransferStockUseCase transfers;
    private final Clock clock;
    /** Units out (reserved + sold) of each slice and SKU at the last look. */
    private final Map<SliceSku, Long> outAtLastLook = new HashMap<>();

    private record SliceSku(ActivityId activityId, SkuId skuId, int slice) {
    }

    public SliceRebalancer(ActivityWindowsPort windows, SliceStockPort slices, TransferStockUseCase transfers,
                                  Clock clock) {
        this.windows = windows;
        this.slices = slices;
        this.transfers = transfers;
        this.clock = clock;
    }

    @Override
    public synchronized int rebalance() {
        Instant now = clock.instant();
        int asked = 0;
        List<ActivityId> open = new ArrayList<>();
        for (Activity sale : windows.findUnarchivedOverlapping(now, now)) {
            if (!sale.slices().sliced()) {
                continue;
            }
            open.add(sale.id());
            try {
                asked += rebalance(sale);
            } catch (StoreUnavailableException notNow) {
                LOG.log(System.Logger.Level.WARNING, "rebalancing sale {0} waits for the next look: {1}", sale.id(),
                        notNow.getMessage());
            }
        }
        // Sales that closed are forgotten, so the memory holds the open sales only.
        outAtLastLook.keySet().removeIf(key -> !open.contains(key.activityId()));
        return asked;
    }

    private int rebalance(Activity sale) {
        List<Map<SkuId, StockLedger>> perSlice = new ArrayList<>();
        for (SaleSlice slice : sale.slices().of(sale.id())) {
            Optional<List<SkuStock>> stock = slices.stock(slice);
            if (stock.isEmpty()) {
                return 0;
            }
            Map<SkuId, StockLedger> ledgers = new HashMap<>();
            stock.get().forEach(sku -> ledgers.put(sku.skuId(), sku.ledger()));
            perSlice.add(ledgers);
        }
        int asked = 0;
        for (ActivityItem item : sale.items()) {
            List<SliceDemand> demand = demandOf(sale.id(), item.skuId(), perSlice);
            if (demand == null) {
                continue;
            }
            for (SliceRebalance.Move move : SliceRebalance.plan(demand, item.stock())) {
                transfers.transfer(sale.id(), item.skuId(), move.from(), move.to(), move.units());
                asked++;
            }
        }
        return asked;
    }

    /** Each slice's available units and units taken since the last look; null when a slice lacks the SKU. */
    private List<SliceDemand> demandOf(ActivityId sale, SkuId sku, List<Map<SkuId, StockLedger>> perSlice) {
        List<SliceDemand> demand = new ArrayList<>(perSlice.size());
        for (int k = 0; k < perSlice.size(); k++) {
            StockLedger ledger = perSlice.get(k).get(sku);
            if (ledger == null) {
                return null;
            }
            long out = ledger.reserved() + ledger.sold();
            Long before = outAtLastLook.put(new SliceSku(sale, sku, k), out);
            // Units given back (a release, an expiry) make out fall: that is no demand, not negative demand.
            long taken = before == null ? 0 : Math.max(0, out - before);
            demand.add(new SliceDemand(k, ledger.available(), taken));
        }
        return demand;
    }
}
