package io.flashsale.adapter.kafka;

import io.flashsale.application.order.model.OrderBatchFailedException;
import io.flashsale.application.order.port.in.PlaceOrderBatchUseCase;
import io.flashsale.application.shared.port.out.StoreContentionException;
import io.flashsale.application.shared.port.out.StoreUnavailableException;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Places every order it is handed, except where a test scripted failures first; remembers every hand-over. */
final class ScriptedPlaceOrder implements PlaceOrderBatchUseCase {

    private final List<Reservation> deliveries = new CopyOnWriteArrayList<>();
    private final List<Reservation> placed = new CopyOnWriteArrayList<>();
    private final Map<ReservationId, AtomicInteger> failuresLeft = new ConcurrentHashMap<>();
    private final Map<ReservationId, CountDownLatch> holds = new ConcurrentHashMap<>();
    private final Map<ReservationId, AtomicInteger> unavailableLeft = new ConcurrentHashMap<>();
    private final Map<ReservationId, AtomicInteger> contendedLeft = new ConcurrentHashMap<>();
    private final Set<ReservationId> poisons = ConcurrentHashMap.newKeySet();
    private volatile boolean databaseOut;

    /** Deliveries of this reservation wait inside placeOrder until the returned latch is counted down. */
    CountDownLatch holdDeliveries(ReservationId id) {
        var release = new CountDownLatch(1);
        holds.put(id, release);
        return release;
    }

    void failNextDeliveries(ReservationId id, int times) {
        failuresLeft.put(id, new AtomicInteger(times));
    }

    void failEveryDelivery(ReservationId id) {
        failNextDeliveries(id, Integer.MAX_VALUE);
    }

    /** Every batch fails as the database adapter fails when it cannot reach the database, until told otherwise. */
    void databaseOut(boolean out) {
        databaseOut = out;
    }

    /** The next {@code times} batches holding this reservation fail as if the database were out of reach. */
    void unavailableForNextDeliveries(ReservationId id, int times) {
        unavailableLeft.put(id, new AtomicInteger(times));
    }

    /** The next {@code times} batches holding this reservation lose a lock (a deadlock the database chose them for). */
    void contendedForNextDeliveries(ReservationId id, int times) {
        contendedLeft.put(id, new AtomicInteger(times));
    }

    /**
     * Every batch holding this reservation fails as a whole, with no index, for a reason that is not the stores (a
     * constraint the code does not expect): a poison event.
     */
    void poison(ReservationId id) {
        poisons.add(id);
    }

    void stopFailing(ReservationId id) {
        failuresLeft.remove(id);
    }

    long deliveriesOf(ReservationId id) {
        return deliveries.stream().filter(reservation -> reservation.id().equals(id)).count();
    }

    long placementsOf(ReservationId id) {
        return placed.stream().filter(reservation -> reservation.id().equals(id)).count();
    }

    List<Reservation> placed() {
        return List.copyOf(placed);
    }

    /** In batch order; a scripted failure fails its own reservation by index, the ones before it stay placed. */
    @Override
    public List<OrderPlacement> placeOrders(List<Reservation> batch) {
        if (databaseOut) {
            deliveries.addAll(batch);
            throw new StoreUnavailableException("the database did not answer", new IllegalStateException("refused"));
        }
        for (Reservation reservation : batch) {
            AtomicInteger left = unavailableLeft.get(reservation.id());
            if (left != null && left.getAndDecrement() > 0) {
                deliveries.addAll(batch);
                throw new StoreUnavailableException("the database did not answer for " + reservation.id(),
                        new IllegalStateException("connection refused"));
            }
            AtomicInteger contended = contendedLeft.get(reservation.id());
            if (contended != null && contended.getAndDecrement() > 0) {
                deliveries.addAll(batch);
                throw new StoreContentionException("deadlock on " + reservation.id(),
                        new IllegalStateException("Deadlock found when trying to get lock"));
            }
            if (poisons.contains(reservation.id())) {
                deliveries.addAll(batch);
                throw new IllegalStateException("poison: a constraint broken by " + reservation.id());
            }
        }
        List<OrderPlacement> placements = new ArrayList<>();
        for (int index = 0; index < batch.size(); index++) {
            Reservation reservation = batch.get(index);
            deliveries.add(reservation);
            awaitRelease(reservation.id());
            AtomicInteger left = failuresLeft.get(reservation.id());
            if (left != null && left.getAndDecrement() > 0) {
                throw new OrderBatchFailedException(index,
                        new IllegalStateException("database down for " + reservation.id()));
            }
            placed.add(reservation);
            placements.add(new OrderPlacement.Placed(Order.placed(reservation, Instant.now())));
        }
        return placements;
    }

    private void awaitRelease(ReservationId id) {
        CountDownLatch release = holds.get(id);
        try {
            if (release != null && !release.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never released " + id);
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while holding " + id, interrupted);
        }
    }
}
