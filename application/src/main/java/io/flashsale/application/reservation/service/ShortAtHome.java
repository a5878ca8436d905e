package io.flashsale.application.reservation.service;

import io.flashsale.application.shared.port.out.StoreUnavailableException;
import io.flashsale.application.slice.port.in.TransferStockUseCase;
import io.flashsale.application.slice.port.out.SliceStockPort;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.slice.SaleSlice;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * A sale in slices (ADR 109) whose buyer's home slice is short of a SKU is not sold out while another slice holds
 * units of it. The home slice borrows from the slice then richest in that SKU, its share of what the others hold
 * (at least what the attempt lacks), by a stock transfer; the attempt is then tried once more. One borrow per slice
 * and SKU runs at a time on an instance: attempts that meet the same shortage meanwhile wait for it (at most
 * {@code borrowWait}) and then try again, so a crowd at an empty slice makes a transfer, not a transfer each. An
 * attempt still short while another slice holds units is told to try again ({@link ReservationOutcome.TryAgain}); the
 * SKU is sold out only when every other slice said it has none.
 */
public final class ShortAtHome {

    private static final ShortAtHome NONE = new ShortAtHome(null, null, Duration.ZERO, Duration.ZERO);

    private final SliceStockPort slices;
    private final TransferStockUseCase transfers;
    private final Duration retryAfter;
    private final Duration borrowWait;
    /** The borrow running for a slice and SKU on this instance; present exactly while it runs. */
    private final ConcurrentHashMap<Borrowing, CompletableFuture<Void>> borrowing = new ConcurrentHashMap<>();

    private record Borrowing(SaleSlice slice, SkuId skuId) {
    }

    /**
     * @param retryAfter what a buyer told to try again is told to wait
     * @param borrowWait how long an attempt waits for a borrow another attempt started
     */
    public ShortAtHome(SliceStockPort slices, TransferStockUseCase transfers, Duration retryAfter,
                       Duration borrowWait) {
        this.slices = slices;
        this.transfers = transfers;
        this.retryAfter = retryAfter;
        this.borrowWait = borrowWait;
    }

    /** For sales of one slice only: a shortage is the sale's, answered as it is. */
    public static ShortAtHome none() {
        return NONE;
    }

    /**
     * The answer to an attempt its home slice refused as sold out or short of a SKU: the retried attempt's after a
     * borrow, {@link ReservationOutcome.TryAgain}, or the refusal itself when no other slice holds units of the SKU.
     *
     * @param retry decides the attempt again in its home slice
     */
    public ReservationOutcome after(ReservationRequest request, ReservationOutcome refused,
                                    Function<ReservationRequest, ReservationOutcome> retry) {
        SaleSlice home = request.id().slice();
        if (this == NONE || !home.slices().sliced()) {
            return refused;
        }
        SkuId sku = skuOf(refused);
        long wanted = quantityOf(request, sku);
        // A borrow that ended since the first try may have brought enough: then no other is made.
        if (slices.available(home, sku).orElse(0) < wanted) {
            Elsewhere elsewhere = elsewhere(home, sku);
            if (elsewhere.units() == 0) {
                return elsewhere.unknown() ? tryAgain(sku) : refused;
            }
            try {
                borrow(home, sku, wanted - availableOf(refused), elsewhere);
            } catch (StoreUnavailableException | TimeoutException notNow) {
                return tryAgain(sku);
            }
        }
        // The bucket was taken by the first try: the retry is the same attempt, not another one.
        ReservationOutcome again = retry.apply(request.behind(null));
        if (again instanceof ReservationOutcome.SoldOut || again instanceof ReservationOutcome.InsufficientStock) {
            Elsewhere left = elsewhere(home, skuOf(again));
            return left.units() > 0 || left.unknown() ? tryAgain(skuOf(again)) : again;
        }
        return again;
    }

    /** What the other slices hold of the SKU, the richest among them, and whether a slice did not say. */
    private record Elsewhere(long units, SaleSlice richest, long richestUnits, boolean unknown) {
    }

    private Elsewhere elsewhere(SaleSlice home, SkuId sku) {
        long units = 0;
        SaleSlice richest = null;
        long richestUnits = 0;
        boolean unknown = false;
        for (int k = 0; k < home.slices().count(); k++) {
            if (k == home.index()) {
                continue;
            }
            SaleSlice other = new SaleSlice(home.activityId(), k, home.slices());
            OptionalLong available = slices.available(other, sku);
            if (available.isEmpty()) {
                // A slice lost or being rebuilt may hold units again soon: not sold out.
                unknown = true;
                continue;
            }
            units += available.getAsLong();
            if (available.getAsLong() > richestUnits) {
                richest = other;
                richestUnits = available.getAsLong();
            }
        }
        return new Elsewhere(units, richest, richestUnits, unknown);
    }

    /**
     * Runs the borrow for the slice and SKU, or waits for the one running. The home slice asks for its share of what
     * the others hold (the others' units over the slice count, rounded up), at least what the attempt lacks, at most
     * what the richest holds.
     */
    private void borrow(SaleSlice home, SkuId sku, long lacking, Elsewhere elsewhere) throws TimeoutException {
        var key = new Borrowing(home, sku);
        var mine = new CompletableFuture<Void>();
        CompletableFuture<Void> running = borrowing.putIfAbsent(key, mine);
        if (running != null) {
            await(running);
            return;
        }
        try {
            long share = (elsewhere.units() + home.slices().count() - 1) / home.slices().count();
            long units = Math.min(elsewhere.richestUnits(), Math.max(lacking, share));
            transfers.transfer(home.activityId(), sku, elsewhere.richest().index(), home.index(), units);
            mine.complete(null);
        } catch (RuntimeException failed) {
            mine.completeExceptionally(failed);
            throw failed;
        } finally {
            borrowing.remove(key, mine);
        }
    }

    private void await(CompletableFuture<Void> running) throws TimeoutException {
        try {
            running.get(borrowWait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException failed) {
            // The borrow it waited for failed: this attempt is told to try again, as that one was.
            throw new TimeoutException("the borrow it waited for failed: " + failed.getCause());
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new TimeoutException("interrupted while waiting for a borrow");
        }
    }

    private ReservationOutcome tryAgain(SkuId sku) {
        return new ReservationOutcome.TryAgain(sku, retryAfter);
    }

    private static SkuId skuOf(ReservationOutcome refused) {
        return switch (refused) {
            case ReservationOutcome.SoldOut soldOut -> soldOut.skuId();
            case ReservationOutcome.InsufficientStock insufficient -> insufficient.skuId();
            default -> throw new IllegalArgumentException("not a shortage: " + refused);
        };
    }

    private static long availableOf(ReservationOutcome refused) {
        return refused instanceof ReservationOutcome.InsufficientStock insufficient ? insufficient.available() : 0;
    }

    private static long quantityOf(ReservationRequest request, SkuId sku) {
        return request.lines().stream().filter(line -> line.skuId().equals(sku))
                .mapToLong(ReservationLine::quantity).sum();
    }
}
