package io.flashsale.application.slice.service;

import io.flashsale.application.shared.port.out.HotStoreFiguresDisagreeException;
import io.flashsale.application.shared.port.out.StoreUnavailableException;
import io.flashsale.application.slice.port.out.SliceStockPort;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.stock.SkuStock;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/** Each slice's available units of one SKU as the transfer scripts keep them: a take and a credit once per id. */
final class InMemorySliceStock implements SliceStockPort {

    private final Map<Integer, Long> available = new HashMap<>();
    private final Map<Long, Long> taken = new HashMap<>();
    private final Set<Long> credited = new HashSet<>();
    private final Set<Integer> unloaded = new HashSet<>();
    private final Set<Integer> drifted = new HashSet<>();
    private boolean down;
    int takes;
    int credits;

    InMemorySliceStock(long... perSlice) {
        for (int k = 0; k < perSlice.length; k++) {
            available.put(k, perSlice[k]);
        }
    }

    long available(int slice) {
        return available.get(slice);
    }

    long sum() {
        return available.values().stream().mapToLong(Long::longValue).sum();
    }

    void unload(int slice) {
        unloaded.add(slice);
    }

    void load(int slice) {
        unloaded.remove(slice);
    }

    /** The slice lost the SKU: its scripts answer that the hot store's figures disagree with the sale. */
    void drift(int slice) {
        drifted.add(slice);
    }

    void down(boolean isDown) {
        down = isDown;
    }

    @Override
    public OptionalLong take(SaleSlice slice, SkuId skuId, long transferId, long units) {
        takes++;
        if (down) {
            throw new StoreUnavailableException("redis down", null);
        }
        if (unloaded.contains(slice.index())) {
            return OptionalLong.empty();
        }
        if (drifted.contains(slice.index())) {
            throw new HotStoreFiguresDisagreeException("slice " + slice.index() + " has no SKU " + skuId);
        }
        long given = taken.computeIfAbsent(transferId, id -> {
            long units0 = Math.min(units, available.get(slice.index()));
            available.merge(slice.index(), -units0, Long::sum);
            return units0;
        });
        return OptionalLong.of(given);
    }

    @Override
    public OptionalLong available(SaleSlice slice, SkuId skuId) {
        return unloaded.contains(slice.index()) ? OptionalLong.empty()
                : OptionalLong.of(available.get(slice.index()));
    }

    @Override
    public Optional<List<SkuStock>> stock(SaleSlice slice) {
        throw new UnsupportedOperationException("the transfer reads no ledger");
    }

    @Override
    public boolean credit(SaleSlice slice, SkuId skuId, long transferId, long units) {
        credits++;
        if (down) {
            throw new StoreUnavailableException("redis down", null);
        }
        if (unloaded.contains(slice.index())) {
            return false;
        }
        if (credited.add(transferId)) {
            available.merge(slice.index(), units, Long::sum);
        }
        return true;
    }
}
