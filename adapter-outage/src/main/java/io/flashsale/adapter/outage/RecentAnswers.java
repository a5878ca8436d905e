package io.flashsale.adapter.outage;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationRequest;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The reservations one store answered lately on this instance, by the buyer's request id: what the other store
 * consults so that a request id repeated across a switch gets the reservation it got before, not a second one. Neither
 * store can tell by itself: while Redis is out, a reservation it accepted moments before waits in its outbox and is
 * not in MySQL yet; after the switch back, Redis's request index lacks what the database path decided unless the sale
 * was rebuilt.
 * <p>
 * Bounded: two generations of at most {@code capacity} entries; remembering into a generation older than
 * {@code generation} (or a full one) drops the older generation. Nothing rotates while nothing is remembered, so the
 * answers Redis gave just before an outage stay for the outage's whole length. Attempts without the buyer's own key
 * are never remembered: they cannot be repeated.
 */
final class RecentAnswers {

    private record Key(String activityId, String buyerId, String requestId) {

        static Key of(Reservation reservation) {
            return new Key(reservation.activityId().value(), reservation.buyerId().value(),
                    reservation.requestId().value());
        }

        static Key of(ReservationRequest request) {
            return new Key(request.activityId().value(), request.buyerId().value(), request.requestId().value());
        }
    }

    private final long generationNanos;
    private final int capacity;
    private final LongSupplier nanoTime;
    private volatile Map<Key, Reservation> current = new ConcurrentHashMap<>();
    private volatile Map<Key, Reservation> previous = Map.of();
    private volatile long currentSince;

    RecentAnswers(Duration generation, int capacity) {
        this(generation, capacity, System::nanoTime);
    }

    RecentAnswers(Duration generation, int capacity, LongSupplier nanoTime) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive");
        }
        this.generationNanos = generation.toNanos();
        this.capacity = capacity;
        this.nanoTime = nanoTime;
        this.currentSince = nanoTime.getAsLong();
    }

    void remember(Reservation reservation) {
        if (!carriesTheBuyersKey(reservation)) {
            return;
        }
        long now = nanoTime.getAsLong();
        if (now - currentSince > generationNanos || current.size() >= capacity) {
            rotate(now);
        }
        current.put(Key.of(reservation), reservation);
    }

    Optional<Reservation> recall(ReservationRequest request) {
        if (current.isEmpty() && previous.isEmpty()) {
            return Optional.empty();
        }
        Key key = Key.of(request);
        Reservation found = current.get(key);
        return Optional.ofNullable(found != null ? found : previous.get(key));
    }

    /** Whether a reservation of this buyer's request at this sale is remembered. */
    boolean holds(ActivityId activityId, BuyerId buyerId, RequestId requestId) {
        if (isEmpty()) {
            return false;
        }
        Key key = new Key(activityId.value(), buyerId.value(), requestId.value());
        return current.containsKey(key) || previous.containsKey(key);
    }

    boolean isEmpty() {
        return current.isEmpty() && previous.isEmpty();
    }

    private synchronized void rotate(long now) {
        if (now - currentSince > generationNanos || current.size() >= capacity) {
            previous = current;
            current = new ConcurrentHashMap<>();
            currentSince = now;
        }
    }

    /** Without a key from the buyer the attempt is its own key (its id's token): it can never be repeated. */
    private static boolean carriesTheBuyersKey(Reservation reservation) {
        String id = reservation.id().value();
        return !id.endsWith("." + reservation.requestId().value());
    }
}
