package io.flashsale.domain.reconciliation;

import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.shared.LargeMaps;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * The units of one SKU its buyers hold in the database of record: their sum always, each buyer's only where it was
 * read. A look of a busy sale needs the sum and the few buyers it audits, not every buyer; reading a sale's every
 * purchase on every pass cost in proportion to its buyers (21 s a pass at 150,000, docs/order-pipeline.md).
 *
 * @param units    the units every buyer of the SKU holds, together
 * @param byBuyer  the units of each buyer read; where not complete, a buyer read who holds none is there with 0
 * @param complete true when every buyer who holds units is in {@code byBuyer}
 */
public record RecordedPurchases(long units, Map<BuyerId, Long> byBuyer, boolean complete) {

    public RecordedPurchases {
        byBuyer = LargeMaps.copyOf(byBuyer);
        if (units < 0 || byBuyer.values().stream().anyMatch(held -> held < 0)) {
            throw new IllegalArgumentException("purchased units are never negative: " + units);
        }
        if (complete && byBuyer.values().stream().mapToLong(Long::longValue).sum() != units) {
            throw new IllegalArgumentException("every buyer read, yet their units do not add up to " + units);
        }
    }

    /** Every buyer's units; the sum is theirs. */
    public static RecordedPurchases complete(Map<BuyerId, Long> every) {
        Map<BuyerId, Long> holding = new HashMap<>(every);
        holding.values().removeIf(held -> held == 0);
        return new RecordedPurchases(holding.values().stream().mapToLong(Long::longValue).sum(), holding, true);
    }

    /**
     * @param units  every buyer's units together
     * @param asked  the buyers whose units were read
     * @param held   the units of those of them who hold any
     */
    public static RecordedPurchases some(long units, Collection<BuyerId> asked, Map<BuyerId, Long> held) {
        Map<BuyerId, Long> read = new HashMap<>();
        asked.forEach(buyer -> read.put(buyer, 0L));
        held.forEach((buyer, bought) -> {
            if (!read.containsKey(buyer)) {
                throw new IllegalArgumentException("units of " + buyer + ", who was not asked about");
            }
            read.put(buyer, bought);
        });
        return new RecordedPurchases(units, read, false);
    }

    /** The buyer's units; refused for a buyer that was not read, whose units this does not know. */
    public long of(BuyerId buyer) {
        Long held = byBuyer.get(buyer);
        if (held != null) {
            return held;
        }
        if (!complete) {
            throw new IllegalStateException("the purchases of " + buyer + " were not read");
        }
        return 0;
    }

    /** Every buyer's units, without zero entries; only when every buyer was read. */
    public Map<BuyerId, Long> all() {
        if (!complete) {
            throw new IllegalStateException("only some buyers' purchases were read");
        }
        return byBuyer;
    }
}
