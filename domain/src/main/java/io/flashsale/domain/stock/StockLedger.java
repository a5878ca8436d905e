package io.flashsale.domain.stock;

/**
 * The stock of one SKU: {@code available = total - reserved - sold}, never negative.
 * Every move returns a new ledger or refuses with {@link IllegalStockMoveException}.
 *
 * @param reserved accepted by the hot path, order not yet in MySQL
 * @param sold     order in MySQL
 */
public record StockLedger(long total, long reserved, long sold) {

    public StockLedger {
        if (total < 0 || reserved < 0 || sold < 0) {
            throw new IllegalStockMoveException("ledger figures must not be negative: " + describe(total, reserved, sold));
        }
        if (reserved + sold > total) {
            throw new IllegalStockMoveException("reserved + sold exceeds total: " + describe(total, reserved, sold));
        }
    }

    public static StockLedger of(long total) {
        return new StockLedger(total, 0, 0);
    }

    public long available() {
        return total - reserved - sold;
    }

    /** available -> reserved. */
    public StockLedger reserve(long quantity) {
        requirePositive(quantity);
        if (quantity > available()) {
            throw new IllegalStockMoveException("cannot reserve " + quantity + ", only " + available() + " available");
        }
        return new StockLedger(total, reserved + quantity, sold);
    }

    /** reserved -> sold: the order exists in MySQL. */
    public StockLedger confirm(long quantity) {
        requirePositive(quantity);
        if (quantity > reserved) {
            throw new IllegalStockMoveException("cannot confirm " + quantity + ", only " + reserved + " reserved");
        }
        return new StockLedger(total, reserved - quantity, sold + quantity);
    }

    /** reserved -> available: a reservation that never became an order. */
    public StockLedger release(long quantity) {
        requirePositive(quantity);
        if (quantity > reserved) {
            throw new IllegalStockMoveException("cannot release " + quantity + ", only " + reserved + " reserved");
        }
        return new StockLedger(total, reserved - quantity, sold);
    }

    /** sold -> available: a cancelled or expired order gives its units back. */
    public StockLedger restore(long quantity) {
        requirePositive(quantity);
        if (quantity > sold) {
            throw new IllegalStockMoveException("cannot restore " + quantity + ", only " + sold + " sold");
        }
        return new StockLedger(total, reserved, sold - quantity);
    }

    /** An audited change of the total; it can never take back units already reserved or sold. */
    public StockLedger adjust(long delta) {
        long newTotal = total + delta;
        if (newTotal < reserved + sold) {
            throw new IllegalStockMoveException("total " + newTotal + " would fall below reserved + sold " + (reserved + sold));
        }
        return new StockLedger(newTotal, reserved, sold);
    }

    private static void requirePositive(long quantity) {
        if (quantity <= 0) {
            throw new IllegalStockMoveException("quantity must be positive, was " + quantity);
        }
    }

    private static String describe(long total, long reserved, long sold) {
        return "total=" + total + " reserved=" + reserved + " sold=" + sold;
    }
}
