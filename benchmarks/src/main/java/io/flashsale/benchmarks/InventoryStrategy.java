package io.flashsale.benchmarks;

import java.util.Map;

/**
 * One way to sell limited stock: "try to take q units of SKU s for buyer b". Every strategy of the comparison sits
 * behind this, so the crowd, the SKU and the accounting are the same for all of them. Implementations are
 * thread-safe: the crowd calls {@link #take} from many threads at once.
 */
public interface InventoryStrategy extends AutoCloseable {

    /** A short name for tables and charts. */
    String name();

    /** Creates a SKU with this stock and per-buyer limit, ready to sell; called before any {@link #take} of it. */
    void stock(SaleItem item);

    /** One attempt; a refusal is an answer, not an exception. */
    Take take(String sku, String buyer, int quantity);

    /** Units of the SKU the store itself says are left (negative when it oversold). */
    long unitsLeft(String sku);

    /**
     * Running totals of what this strategy saw beside the answers (retries, deadlocks, lock waits), by name;
     * the crowd reports the difference over one run.
     */
    default Map<String, Long> counters() {
        return Map.of();
    }

    /** Drops what the strategy created on the servers and closes its clients. */
    @Override
    void close();
}
