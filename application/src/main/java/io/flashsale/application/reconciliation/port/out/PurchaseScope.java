package io.flashsale.application.reconciliation.port.out;

import io.flashsale.domain.reservation.BuyerId;

import java.util.Collection;
import java.util.Set;

/**
 * Whose purchases a read of a SKU's recorded figures brings, besides their sum: every buyer's (a rebuild, a look that
 * reads every holding), or only some (the rolling audit's slice), so that a steady pass costs nothing per buyer.
 *
 * @param every  true: every buyer who holds units
 * @param buyers otherwise, the buyers to read (none: the sum alone)
 */
public record PurchaseScope(boolean every, Set<BuyerId> buyers) {

    public static final PurchaseScope EVERY = new PurchaseScope(true, Set.of());

    public static final PurchaseScope SUM_ONLY = new PurchaseScope(false, Set.of());

    public PurchaseScope {
        buyers = Set.copyOf(buyers);
        if (every && !buyers.isEmpty()) {
            throw new IllegalArgumentException("every buyer, or some: not both");
        }
    }

    public static PurchaseScope of(Collection<BuyerId> buyers) {
        return buyers.isEmpty() ? SUM_ONLY : new PurchaseScope(false, Set.copyOf(buyers));
    }
}
