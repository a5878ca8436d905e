package io.flashsale.application.reservation.service;

import io.flashsale.application.reservation.port.out.AcceptedRequestsPort;
import io.flashsale.application.reservation.port.out.AcceptedRequestsSnapshotPort;
import io.flashsale.application.reservation.port.out.StockReturnListener;
import io.flashsale.application.sale.port.out.SaleChangeListener;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What this instance knows to be final for now, learnt from the hot store's own answers: a SKU sold out, a sale
 * ended, a sale not started yet. The crowd that meets those gets its answer without a round trip. Every return of
 * units ({@link #returned}) forgets the activity's refusals, and each refusal is forgotten anyway after
 * {@code memory} (not-started ones after {@code notStartedMemory}, and at the start time by this instance's clock),
 * so a lost notice costs at most that long. A refusal learnt from an answer that was already on its way when a
 * return was heard is not kept: the answer may predate the return.
 *
 * <p>An attempt with an idempotency key gets a sold-out or ended refusal here only when the key was surely never
 * accepted (ADR 0069): learning such a refusal reads the sale's accepted request keys once ({@link AcceptedRequestsPort},
 * at most one read per sale in flight and one per {@code rereadGap}), on the thread that learnt it, and the read
 * vouches for the refusals learnt before it. A key the read may hold asks the store, which replays it. The read is
 * forgotten with the refusals at every return of units, and not kept when a return was heard while it was on its
 * way: a key accepted after the return would be missing from it. A refusal that holds is not replaced by the same
 * refusal learnt again, so late answers (a batch's, all at once) never leave keyed attempts to the store until the next
 * read. A key is taken to name one attempt (its resends carry the same lines). A change of the sale's terms (a pause,
 * a resume, a window moved: ADR 79) forgets its refusals as a return does ({@link #changed}): a sale paused after it
 * sold out is then answered by the hot store, which says paused, and a sale whose end was moved is no longer "ended".
 * Thread-safe.
 */
public final class KnownRefusals implements StockReturnListener, SaleChangeListener {

    /** @param learnt this refusal's place in the order refusals were learnt in, see {@link #learnings} */
    private record Remembered(ReservationOutcome outcome, Instant until, long learnt) {

        boolean holdsAt(Instant now) {
            return now.isBefore(until);
        }

        /**
         * Sold out or ended: a key not accepted by the time the refusal was answered cannot be accepted since, unless
         * units come back, and a return forgets the refusal.
         */
        boolean finalForNewKeys() {
            return outcome instanceof ReservationOutcome.SoldOut || outcome instanceof ReservationOutcome.Ended;
        }
    }

    /** The sale's accepted request keys, read after every refusal learnt up to {@code vouchesUpTo}. */
    private record AcceptedRead(AcceptedRequestsSnapshotPort keys, long vouchesUpTo) {

        boolean vouchesFor(Remembered refusal) {
            return refusal.learnt() <= vouchesUpTo;
        }
    }

    /** One activity's refusals: of the whole sale (ended, not started), and per SKU (sold out). */
    private static final class Known {
        final Map<SkuId, Remembered> skus = new ConcurrentHashMap<>();
        final AtomicReference<Remembered> sale = new AtomicReference<>();
        volatile AcceptedRead accepted;

        /** The refusal that holds for these lines at {@code now}: the sale's, else the first line's; null if none. */
        Remembered holding(List<ReservationLine> lines, Instant now) {
            Remembered whole = sale.get();
            if (whole != null && whole.holdsAt(now)) {
                return whole;
            }
            for (ReservationLine line : lines) {
                Remembered sku = skus.get(line.skuId());
                if (sku != null && sku.holdsAt(now)) {
                    return sku;
                }
            }
            return null;
        }
    }

    /** Whether a sale's accepted keys are being read, and when the next read may start. */
    private static final class Reads {
        final AtomicBoolean inFlight = new AtomicBoolean();
        volatile Instant notBefore = Instant.MIN;
    }

    private final Duration memory;
    private final Duration notStartedMemory;
    private final boolean enabled;
    private final AcceptedRequestsPort acceptedRequests;
    private final Duration rereadGap;
    private final Map<ActivityId, Known> refusals = new ConcurrentHashMap<>();
    /** Counts the returns heard: an answer is learnt only when none was heard while it was on its way. */
    private final AtomicLong returnsHeard = new AtomicLong();
    /** Counts the refusals learnt: a read of accepted keys vouches for those counted before it began. */
    private final AtomicLong learnings = new AtomicLong();
    /** Per sale, not forgotten at returns: what bounds the rate of reads of its accepted keys. */
    private final Map<ActivityId, Reads> reads = new ConcurrentHashMap<>();

    private KnownRefusals(Duration memory, Duration notStartedMemory, boolean enabled,
                          AcceptedRequestsPort acceptedRequests, Duration rereadGap) {
        this.memory = memory;
        this.notStartedMemory = notStartedMemory;
        this.enabled = enabled;
        this.acceptedRequests = acceptedRequests;
        this.rereadGap = rereadGap;
    }

    /** Keyed attempts always ask the hot store. */
    public static KnownRefusals remembering(Duration memory, Duration notStartedMemory) {
        return remembering(memory, notStartedMemory, AcceptedRequestsPort.none(), Duration.ofSeconds(1));
    }

    /**
     * @param acceptedRequests read once per sale when it is learnt sold out or ended, to answer keyed attempts
     * @param rereadGap        the least time between two reads of one sale's accepted keys by this instance
     */
    public static KnownRefusals remembering(Duration memory, Duration notStartedMemory,
                                            AcceptedRequestsPort acceptedRequests, Duration rereadGap) {
        if (memory.isNegative() || memory.isZero() || notStartedMemory.isNegative() || notStartedMemory.isZero()) {
            throw new IllegalArgumentException("memories must be positive: " + memory + ", " + notStartedMemory);
        }
        if (rereadGap.isNegative()) {
            throw new IllegalArgumentException("the gap between reads must not be negative: " + rereadGap);
        }
        return new KnownRefusals(memory, notStartedMemory, true, acceptedRequests, rereadGap);
    }

    /** Remembers nothing: every attempt asks the hot store. */
    public static KnownRefusals none() {
        return new KnownRefusals(Duration.ZERO, Duration.ZERO, false, AcceptedRequestsPort.none(), Duration.ZERO);
    }

    /** The refusal this instance knows for an attempt on these lines at {@code now}, if any. */
    public Optional<ReservationOutcome> answer(ActivityId activityId, List<ReservationLine> lines, Instant now) {
        Known known = refusals.get(activityId);
        if (known == null) {
            return Optional.empty();
        }
        return Optional.ofNullable(known.holding(lines, now)).map(Remembered::outcome);
    }

    /**
     * The refusal this instance knows for a keyed attempt: the one {@link #answer(ActivityId, List, Instant)} gives,
     * when it is sold out or ended, a read of the sale's accepted keys vouches for it, and that read surely does not
     * hold the buyer's key. Anything else is the store's to answer.
     */
    public Optional<ReservationOutcome> answer(ActivityId activityId, BuyerId buyerId, RequestId requestId,
                                               List<ReservationLine> lines, Instant now) {
        Known known = refusals.get(activityId);
        AcceptedRead accepted = known == null ? null : known.accepted;
        if (accepted == null) {
            return Optional.empty();
        }
        Remembered refusal = known.holding(lines, now);
        if (refusal == null || !refusal.finalForNewKeys() || !accepted.vouchesFor(refusal)
                || accepted.keys().mayHold(buyerId, requestId)) {
            return Optional.empty();
        }
        return Optional.of(refusal.outcome());
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
                Remembered kept = known.skus.compute(soldOut.skuId(), (sku, current) -> current != null
                        && current.holdsAt(now) ? current : remembered(outcome, now.plus(memory)));
                // Checked again after the write: a return heard meanwhile may have missed it.
                if (returnsHeard.get() != ticket) {
                    known.skus.remove(soldOut.skuId(), kept);
                    return;
                }
                readAccepted(activityId, known, kept, now);
            }
            case ReservationOutcome.Ended ended -> rememberSale(activityId, ticket, outcome, now.plus(memory), now);
            case ReservationOutcome.NotStarted notStarted -> {
                Instant soonest = now.plus(notStartedMemory);
                rememberSale(activityId, ticket, outcome,
                        notStarted.startsAt().isBefore(soonest) ? notStarted.startsAt() : soonest, now);
            }
            default -> {
            }
        }
    }

    private void rememberSale(ActivityId activityId, long ticket, ReservationOutcome outcome, Instant until,
                              Instant now) {
        Known known = known(activityId);
        Remembered kept = known.sale.updateAndGet(current -> current != null && current.holdsAt(now)
                && current.outcome().getClass() == outcome.getClass() ? current : remembered(outcome, until));
        if (returnsHeard.get() != ticket) {
            known.sale.compareAndSet(kept, null);
            return;
        }
        if (kept.finalForNewKeys()) {
            readAccepted(activityId, known, kept, now);
        }
    }

    /**
     * A refusal learnt now. The same refusal learnt again while it holds (answers that were on their way, often a
     * whole batch's at once) keeps the first, with its place and expiry: the read vouching for it keeps vouching.
     */
    private Remembered remembered(ReservationOutcome outcome, Instant until) {
        return new Remembered(outcome, until, learnings.incrementAndGet());
    }

    /**
     * Reads the sale's accepted keys unless a read already vouches for {@code refusal}, another is in flight, or the
     * last one began less than the gap ago. Kept only when no return was heard while it was on its way.
     */
    private void readAccepted(ActivityId activityId, Known known, Remembered refusal, Instant now) {
        AcceptedRead current = known.accepted;
        if (current != null && current.vouchesFor(refusal)) {
            return;
        }
        Reads gate = reads.computeIfAbsent(activityId, id -> new Reads());
        if (now.isBefore(gate.notBefore) || !gate.inFlight.compareAndSet(false, true)) {
            return;
        }
        try {
            gate.notBefore = now.plus(rereadGap);
            long ticket = returnsHeard.get();
            // Every refusal counted so far was answered before this read begins, so the read holds every key
            // accepted before those answers.
            long vouchesUpTo = learnings.get();
            Optional<AcceptedRequestsSnapshotPort> keys = acceptedRequests.read(activityId);
            if (keys.isEmpty() || returnsHeard.get() != ticket) {
                return;
            }
            var read = new AcceptedRead(keys.get(), vouchesUpTo);
            known.accepted = read;
            if (returnsHeard.get() != ticket) {
                known.accepted = null;
            }
        } catch (RuntimeException unread) {
            // The attempt that learnt the refusal has its answer; without a read, keyed attempts ask the store.
        } finally {
            gate.inFlight.set(false);
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

    /** The sale's record changed (its window or pause among others): what was learnt of it may not hold any more. */
    @Override
    public void changed(ActivityId activityId) {
        returned(activityId);
    }

    @Override
    public void missedSome() {
        returnsHeard.incrementAndGet();
        refusals.clear();
    }
}
