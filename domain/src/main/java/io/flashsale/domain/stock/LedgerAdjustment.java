package io.flashsale.domain.stock;

/** What applying a stock adjustment to a hot store's ledger came to. */
public sealed interface LedgerAdjustment {

    /** Applied now: total and available moved by the delta. */
    record Applied(StockLedger ledger) implements LedgerAdjustment {
    }

    /** This adjustment was applied before (or a repair already wrote a total that includes it): nothing moved. */
    record AlreadyApplied() implements LedgerAdjustment {
    }

    /** Refused, nothing moved: fewer units are available than the reduction takes. */
    record Refused(long available) implements LedgerAdjustment {
    }

    /** The store holds no ledger for the SKU (lost, or never there); reconciliation rewrites it. */
    record UnknownSku() implements LedgerAdjustment {
    }

    /** The store does not hold the activity; it takes the database's total when it is loaded. */
    record NotLoaded() implements LedgerAdjustment {
    }
}
