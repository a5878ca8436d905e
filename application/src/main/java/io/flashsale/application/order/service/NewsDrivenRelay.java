package io.flashsale.application.order.service;

import io.flashsale.application.order.port.in.RelayReservationsUseCase;
import io.flashsale.application.order.port.out.EventPublishException;
import io.flashsale.application.order.port.out.OutboxNewsListener;
import io.flashsale.application.order.port.out.ReservationOutboxPort;
import io.flashsale.domain.activity.ActivityId;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * The relay's passes, costing Redis in proportion to new work rather than to the number of sales (ADR 0067). A pass
 * reads the outboxes with news ({@link OutboxNewsListener}), keeps reading each one while it yields entries, and probes
 * a few registered outboxes of a slow paced sweep: the safety net for a lost notice, a dead relay's pending entries and
 * entries no notice announced. An outbox whose entries the broker did not take, or whose entries the sweep found
 * pending with another relay, is read again once they may be claimed ({@code staleAfter} later). When notices
 * may have been missed, the next pass sweeps every outbox at once.
 *
 * <p>{@link #news} and {@link #missedSome} may be called from any thread; passes run on one thread at a time.
 */
public final class NewsDrivenRelay implements RelayReservationsUseCase, OutboxNewsListener {

    /**
     * @param every          a sweep starts at most this often
     * @param salesPerSecond a paced sweep probes at most this many outboxes per second (one Redis command each), so a
     *                       sweep of n sales takes at least n / salesPerSecond
     */
    public record Sweep(Duration every, int salesPerSecond) {

        public Sweep {
            if (every == null || every.isNegative() || every.isZero()) {
                throw new IllegalArgumentException("the sweep interval must be positive, was " + every);
            }
            if (salesPerSecond < 1) {
                throw new IllegalArgumentException("the sweep must probe at least one sale per second");
            }
        }
    }

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final OutboxRelayService relay;
    private final ReservationOutboxPort outbox;
    private final Sweep sweep;
    private final long retryAfterNanos;
    private final long nanosPerProbe;
    private final LongSupplier nanoTime;

    private final Set<ActivityId> withNews = ConcurrentHashMap.newKeySet();
    /** Set at start as well: entries accepted before this instance listened were announced to nobody. */
    private final AtomicBoolean sweepEverything = new AtomicBoolean(true);
    private volatile Runnable wake = () -> { };

    // Owned by the passing thread.
    private final Set<ActivityId> yielding = new LinkedHashSet<>();
    private final Map<ActivityId, Long> retryAt = new HashMap<>();
    private final ArrayDeque<ActivityId> sweepLeft = new ArrayDeque<>();
    private long sweepStartedAt;
    private long sweepProbed;
    private boolean sweepStarted;

    public NewsDrivenRelay(OutboxRelayService relay, ReservationOutboxPort outbox, Sweep sweep) {
        this(relay, outbox, sweep, System::nanoTime);
    }

    /** @param nanoTime the clock of the sweep's pace and of the retries, as {@link System#nanoTime()} */
    NewsDrivenRelay(OutboxRelayService relay, ReservationOutboxPort outbox, Sweep sweep, LongSupplier nanoTime) {
        this.relay = relay;
        this.outbox = outbox;
        this.sweep = sweep;
        this.retryAfterNanos = relay.staleAfter().toNanos();
        this.nanosPerProbe = NANOS_PER_SECOND / sweep.salesPerSecond();
        this.nanoTime = nanoTime;
    }

    @Override
    public void whenWorkArrives(Runnable wake) {
        this.wake = wake;
    }

    @Override
    public void news(ActivityId activityId) {
        // A sale already waiting for the next pass needs no second wake-up: the busy path stays cheap.
        if (withNews.add(activityId)) {
            wake.run();
        }
    }

    @Override
    public void missedSome() {
        sweepEverything.set(true);
        wake.run();
    }

    @Override
    public int relayPending() {
        long now = nanoTime.getAsLong();
        Set<ActivityId> due = new LinkedHashSet<>(yielding);
        yielding.clear();
        takeNews(due);
        takeRetries(now, due);
        int relayed = 0;
        EventPublishException failure = null;
        try {
            Set<ActivityId> probedWaiting = probeSweep(now, due);
            for (Iterator<ActivityId> next = due.iterator(); next.hasNext(); ) {
                ActivityId activityId = next.next();
                try {
                    int entries = relay.relay(activityId);
                    if (entries > 0) {
                        relayed += entries;
                        yielding.add(activityId);
                    } else if (probedWaiting.contains(activityId)) {
                        // Entries pending with another relay, not stale yet: claimable by then, if it died.
                        retryAt.putIfAbsent(activityId, now + retryAfterNanos);
                    }
                } catch (EventPublishException notAcknowledged) {
                    // Its entries stay pending with this relay: claimable, by this relay or another, once stale.
                    retryAt.put(activityId, now + retryAfterNanos);
                    failure = collect(failure, notAcknowledged);
                }
                next.remove();
            }
        } finally {
            // Redis failed mid-pass: the outboxes not read yet are read on the next pass.
            withNews.addAll(due);
        }
        if (failure != null) {
            throw failure;
        }
        return relayed;
    }

    private void takeNews(Set<ActivityId> due) {
        for (Iterator<ActivityId> next = withNews.iterator(); next.hasNext(); ) {
            due.add(next.next());
            next.remove();
        }
    }

    private void takeRetries(long now, Set<ActivityId> due) {
        for (Iterator<Map.Entry<ActivityId, Long>> next = retryAt.entrySet().iterator(); next.hasNext(); ) {
            Map.Entry<ActivityId, Long> retry = next.next();
            if (now - retry.getValue() >= 0) {
                due.add(retry.getKey());
                next.remove();
            }
        }
    }

    /** Probes the outboxes the sweep's pace allows by now; those with entries waiting join {@code due} and are returned. */
    private Set<ActivityId> probeSweep(long now, Set<ActivityId> due) {
        var waiting = new HashSet<ActivityId>();
        boolean everything = sweepEverything.getAndSet(false);
        if (everything || (sweepLeft.isEmpty() && (!sweepStarted || now - sweepStartedAt >= sweep.every().toNanos()))) {
            startSweep(now, everything);
        }
        long allowed = everything ? Long.MAX_VALUE : (now - sweepStartedAt) / nanosPerProbe;
        try {
            while (!sweepLeft.isEmpty() && (everything || sweepProbed < allowed)) {
                ActivityId activityId = sweepLeft.peekFirst();
                if (!due.contains(activityId) && outbox.hasEntriesWaiting(activityId)) {
                    due.add(activityId);
                    waiting.add(activityId);
                }
                sweepLeft.removeFirst();
                sweepProbed++;
            }
        } catch (RuntimeException unavailable) {
            sweepEverything.compareAndSet(false, everything);
            throw unavailable;
        }
        return waiting;
    }

    private void startSweep(long now, boolean everything) {
        try {
            sweepLeft.clear();
            sweepLeft.addAll(outbox.activities());
        } catch (RuntimeException unavailable) {
            sweepEverything.compareAndSet(false, everything);
            throw unavailable;
        }
        sweepStarted = true;
        sweepStartedAt = now;
        sweepProbed = 0;
    }

    private static EventPublishException collect(EventPublishException first, EventPublishException next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }
}
