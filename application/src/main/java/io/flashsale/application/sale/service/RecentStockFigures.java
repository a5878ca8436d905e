package io.flashsale.application.sale.service;

import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.stock.SkuStock;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The hot store's live figures of a sale as the buyers' page reads them: every buyer polls the sale, so this instance
 * reads each sale's figures at most once per {@code freshFor}, however many buyers poll, and readers of a stale entry
 * share the one read in flight. A figure shown may be {@code freshFor} old; nothing is decided on it (the reserve
 * script decides every attempt). Thread-safe.
 */
public final class RecentStockFigures {

    /** Sales remembered before stale reads are dropped: sales that nobody reads any more (ended, archived). */
    static final int MOST_SALES = 1_000;

    private record Read(Optional<List<SkuStock>> ledgers, Instant at) {
    }

    private final StockReservationPort stock;
    private final Duration freshFor;
    private final Clock clock;
    private final Map<ActivityId, Read> recent = new ConcurrentHashMap<>();
    private final Map<ActivityId, CompletableFuture<Optional<List<SkuStock>>>> inFlight = new ConcurrentHashMap<>();

    private RecentStockFigures(StockReservationPort stock, Duration freshFor, Clock clock) {
        if (freshFor.isNegative()) {
            throw new IllegalArgumentException("figures cannot be fresh for a negative time: " + freshFor);
        }
        this.stock = stock;
        this.freshFor = freshFor;
        this.clock = clock;
    }

    /** @param freshFor how long a read serves the buyers' reads of its sale; zero reads the store every time */
    public static RecentStockFigures remembering(StockReservationPort stock, Duration freshFor, Clock clock) {
        return new RecentStockFigures(stock, freshFor, clock);
    }

    /** Every call reads the store. */
    public static RecentStockFigures none(StockReservationPort stock) {
        return new RecentStockFigures(stock, Duration.ZERO, Clock.systemUTC());
    }

    /** The sale's ledgers in the hot store (empty before its warm-up), at most {@code freshFor} old. */
    public Optional<List<SkuStock>> of(ActivityId activityId) {
        if (freshFor.isZero()) {
            return stock.stock(activityId);
        }
        Read last = recent.get(activityId);
        if (last != null && clock.instant().isBefore(last.at().plus(freshFor))) {
            return last.ledgers();
        }
        var mine = new CompletableFuture<Optional<List<SkuStock>>>();
        CompletableFuture<Optional<List<SkuStock>>> running = inFlight.putIfAbsent(activityId, mine);
        if (running != null) {
            return awaited(running);
        }
        try {
            // Stamped before the read: the figures are at least as new as this instant.
            Instant at = clock.instant();
            Optional<List<SkuStock>> ledgers = stock.stock(activityId);
            if (recent.size() >= MOST_SALES) {
                recent.values().removeIf(read -> !at.isBefore(read.at().plus(freshFor)));
            }
            recent.put(activityId, new Read(ledgers, at));
            mine.complete(ledgers);
            return ledgers;
        } catch (RuntimeException failed) {
            mine.completeExceptionally(failed);
            throw failed;
        } finally {
            inFlight.remove(activityId, mine);
        }
    }

    /** Forgets a sale's figures: this instance just loaded it, and its buyers should see it loaded at once. */
    public void forget(ActivityId activityId) {
        recent.remove(activityId);
    }

    /** How many sales' figures are kept. */
    int salesRemembered() {
        return recent.size();
    }

    private static Optional<List<SkuStock>> awaited(CompletableFuture<Optional<List<SkuStock>>> running) {
        try {
            return running.join();
        } catch (CompletionException failed) {
            if (failed.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw failed;
        }
    }
}
