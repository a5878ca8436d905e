package io.flashsale.application.service;

import io.flashsale.application.port.out.StockReturnListener;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What this instance knows to be final for now, learnt from the hot store's own answers: a SKU sold out, a sale
 * ended, a sale not started yet. The crowd that meets those gets its answer without a round trip. Every return of
 * units ({@link #returned}) forgets the activity's refusals, and each refusal is forgotten anyway after
 * {@code memory} (not-started ones after {@code notStartedMemory}, and at the start time by this instance's clock),
 * so a lost notice costs at most that long. A refusal learnt from an answer that was already on its way when a
 * return was heard is not kept: the answer may predate the return. Thread-safe.
 */
public final class KnownRefusals implements StockReturnListener {

    private record Remembered(ReservationOutcome outcome, Instant until) {

        boolean holdsAt(Instant now) {
            return now.isBefore(until);
        }
    }

    /** One activity's refusals: of the whole sale (ended, not started), and per SKU (sold out). */
    private static final class Known {
        final Map<SkuId, Remembered> skus = new ConcurrentHashMap<>();
        volatile Remembered sale;
    }

    private final Duration memory;
    private final Duration notStartedMemory;
    private final boolean enabled;
    private final Map<ActivityId, Known> refusals = new ConcurrentHashMap<>();
    /** Counts the returns heard: an answer is learnt only when none was heard while it was on its way. */
    private final AtomicLong returnsHeard = new AtomicLong();

    private KnownRefusals(Duration memory, Duration notStartedMemory, boolean enabled) {
        this.memory = memory;
        this.notStartedMemory = notStartedMemory;
        this.enabled = enabled;
    }

    public static KnownRefusals remembering(Duration memory, Duration notStartedMemory) {
        if (memory.isNegative() || memory.isZero() || notStartedMemory.isNegative() || notStartedMemory.isZero()) {
            throw new IllegalArgumentException("memories must be positive: " + memory + ", " + notStartedMemory);
        }
        return new KnownRefusals(memory, notStartedMemory, true);
    }

    /** Remembers nothing: every attempt asks the hot store. */
    public static KnownRefusals none() {
        return new KnownRefusals(Duration.ZERO, Duration.ZERO, false);
    }

    /** The refusal this instance knows for an attempt on these lines at {@code now}, if any. */
    public Optional<ReservationOutcome> answer(ActivityId activityId, List<ReservationLine> lines, Instant now) {
        Known known = refusals.get(activityId);
        if (known == null) {
            return Optional.empty();
        }
        Remembered sale = known.sale;
        if (sale != null && sale.holdsAt(now)) {
            return Optional.of(sale.outcome());
        }
        for (ReservationLine line : lines) {
            Remembered sku = known.skus.get(line.skuId());
            if (sku != null && sku.holdsAt(now)) {
                return Optional.of(sku.outcome());
            }
        }
        return Optional.empty();
    }

    /** Taken before asking the hot store, handed back to {@link #learn}. */
    public long ticket() {
        return returnsHeard.get();
    }

    /** Keeps a final refusal the hot store gave, unless a return was heard since {@code ticket}. */
    public void learn(ActivityId activityId, long ticket, ReservationOutcome outcome, Instant now) {
        if (!enabled || returnsHeard.get() != ticket) {
            return;
        }
        switch (outcome) {
            case ReservationOutcome.SoldOut soldOut -> {
                Known known = known(activityId);
                var remembered = new Remembered(outcome, now.plus(memory));
                known.skus.put(soldOut.skuId(), remembered);
                // Checked again after the write: a return heard meanwhile may have missed it.
                if (returnsHeard.get() != ticket) {
                    known.skus.remove(soldOut.skuId(), remembered);
                }
            }
            case ReservationOutcome.Ended ended -> rememberSale(activityId, ticket, outcome, now.plus(memory));
            case ReservationOutcome.NotStarted notStarted -> {
                Instant soonest = now.plus(notStartedMemory);
                rememberSale(activityId, ticket, outcome,
                        notStarted.startsAt().isBefore(soonest) ? notStarted.startsAt() : soonest);
            }
            default -> {
            }
        }
    }

    private void rememberSale(ActivityId activityId, long ticket, ReservationOutcome outcome, Instant until) {
        Known known = known(activityId);
        known.sale = new Remembered(outcome, until);
        if (returnsHeard.get() != ticket) {
            known.sale = null;
        }
    }

    private Known known(ActivityId activityId) {
        return refusals.computeIfAbsent(activityId, id -> new Known());
    }

    @Override
    public void returned(ActivityId activityId) {
        returnsHeard.incrementAndGet();
        refusals.remove(activityId);
    }

    @Override
    public void missedSome() {
        returnsHeard.incrementAndGet();
        refusals.clear();
    }
}
