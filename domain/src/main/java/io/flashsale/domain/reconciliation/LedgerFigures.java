package io.flashsale.domain.reconciliation;

import io.flashsale.domain.stock.StockLedger;

/**
 * The four figures of one SKU's ledger as a store shows them or as they should be. Unlike {@link StockLedger} these may
 * be anything, negative or inconsistent: a damaged store is exactly what reconciliation has to describe.
 */
public record LedgerFigures(long total, long reserved, long sold, long available) {

    public static final LedgerFigures ZERO = new LedgerFigures(0, 0, 0, 0);

    public static LedgerFigures of(StockLedger ledger) {
        return new LedgerFigures(ledger.total(), ledger.reserved(), ledger.sold(), ledger.available());
    }

    public LedgerFigures minus(LedgerFigures other) {
        return new LedgerFigures(total - other.total, reserved - other.reserved, sold - other.sold,
                available - other.available);
    }

    public boolean isZero() {
        return equals(ZERO);
    }

    /** {@code available = total - reserved - sold}, and nothing negative: what a healthy ledger always shows. */
    public boolean isConsistent() {
        return total >= 0 && reserved >= 0 && sold >= 0 && available >= 0 && available == total - reserved - sold;
    }

    /** The largest figure, ignoring signs: for a difference, how far apart the two sides are. */
    public long largest() {
        return Math.max(Math.max(Math.abs(total), Math.abs(reserved)), Math.max(Math.abs(sold), Math.abs(available)));
    }

    /** The ledger these figures describe; only for consistent figures. */
    public StockLedger toLedger() {
        if (!isConsistent()) {
            throw new IllegalStateException("not a ledger: " + this);
        }
        return new StockLedger(total, reserved, sold);
    }

    @Override
    public String toString() {
        return "total=" + total + " reserved=" + reserved + " sold=" + sold + " available=" + available;
    }
}
