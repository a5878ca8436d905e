package io.flashsale.bootstrap.pipeline;

import io.flashsale.adapter.kafka.ReservationOrderListener;
import io.flashsale.application.order.port.in.PlaceOrderBatchUseCase;
import io.flashsale.application.order.port.out.OrderPlacementPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The order consumer's use case with a switch that makes it "die" after the database commit of chosen deliveries:
 * the batch holding a chosen reservation is in MySQL (and, if chosen, Redis was told), then the delivery fails, so
 * its offsets are not committed and the records come again. A reservation is chosen by its rank among first
 * deliveries, so a batch delivered again never dies a second time for the same reservation. Optionally the listener container is stopped at that moment and started again
 * later, as a consumer process that died and came back. Unarmed, it is the real use case.
 */
final class CrashingPlaceOrder implements PlaceOrderBatchUseCase {

    enum Moment {
        /** MySQL committed, Redis not yet told. */
        AFTER_COMMIT_BEFORE_REDIS,
        /** MySQL committed and Redis confirmed; only the offset commit is missing. */
        AFTER_REDIS
    }

    /**
     * Crash the first delivery of every {@code everyNth} reservation of {@code activity}; with
     * {@code restartContainerAfter}, the first crash also stops the listener container for that long.
     */
    record Plan(ActivityId activity, Moment moment, int everyNth, Duration restartContainerAfter) {
    }

    static final class SimulatedCrash extends RuntimeException {

        SimulatedCrash(Set<ReservationId> ids) {
            super("simulated consumer crash after the database commit of " + ids);
        }
    }

    private final PlaceOrderBatchUseCase delegate;
    private final OrderPlacementPort orders;
    private final ObjectProvider<KafkaListenerEndpointRegistry> listeners;
    private final AtomicInteger deliveries = new AtomicInteger();
    private final Set<ReservationId> crashed = ConcurrentHashMap.newKeySet();
    private final Set<ReservationId> seen = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean restartDue = new AtomicBoolean();
    private final AtomicBoolean restarting = new AtomicBoolean();
    private final AtomicInteger restarts = new AtomicInteger();
    private volatile Plan plan;
    private volatile Holding holding;
    private volatile ActivityId poisonedActivity;

    CrashingPlaceOrder(PlaceOrderBatchUseCase delegate, OrderPlacementPort orders,
                       ObjectProvider<KafkaListenerEndpointRegistry> listeners) {
        this.delegate = delegate;
        this.orders = orders;
        this.listeners = listeners;
    }

    void arm(Plan newPlan) {
        deliveries.set(0);
        crashed.clear();
        seen.clear();
        restartDue.set(newPlan.restartContainerAfter() != null);
        plan = newPlan;
    }

    void disarm() {
        plan = null;
    }

    /**
     * From now on every batch holding a reservation of {@code activity} fails as a whole, for a reason that is not the
     * stores (a constraint the code does not expect): the pipeline finds those reservations poison and dead-letters them.
     * Null stops it.
     */
    void poison(ActivityId activity) {
        poisonedActivity = activity;
    }

    Set<ReservationId> crashed() {
        return Set.copyOf(crashed);
    }

    /** How many times the listener container was stopped and started again, over all plans. */
    int restarts() {
        return restarts.get();
    }

    boolean restarting() {
        return restarting.get();
    }

    /**
     * From now on a batch holding events of {@code activity} waits at the returned holding's gate, and its events of
     * that activity are then dropped (a test's synthetic events: no order, no Redis call); the rest of the batch is
     * placed as usual. Not a crash: the batch returns normally and its offsets are committed.
     */
    Holding holdAndDrop(ActivityId activity) {
        Holding newHolding = new Holding(activity);
        holding = newHolding;
        return newHolding;
    }

    /** Lets every held batch go, now and later. */
    void stopHolding() {
        Holding current = holding;
        holding = null;
        if (current != null) {
            current.openForGood();
        }
    }

    /** Where held batches wait; at most {@link #LONGEST_HOLD}, so a test that forgets to open it cannot hang. */
    static final class Holding {

        static final Duration LONGEST_HOLD = Duration.ofSeconds(150);

        private final ActivityId activity;
        private final Set<ReservationId> delivered = ConcurrentHashMap.newKeySet();
        private final Set<ReservationId> passed = ConcurrentHashMap.newKeySet();
        private final AtomicInteger waiting = new AtomicInteger();
        private volatile CountDownLatch gate = new CountDownLatch(1);
        private volatile boolean open;

        private Holding(ActivityId activity) {
            this.activity = activity;
        }

        private boolean holds(Reservation reservation) {
            return activity.equals(reservation.activityId());
        }

        private void await(List<Reservation> batch) {
            List<ReservationId> held = batch.stream().filter(this::holds).map(Reservation::id).toList();
            delivered.addAll(held);
            CountDownLatch mine = gate;
            // A batch let through once comes again only if its offsets were not committed (a rebalance revoked its
            // partition meanwhile): holding it a second time would stop that partition on events already counted.
            if (open || passed.containsAll(held)) {
                return;
            }
            waiting.incrementAndGet();
            try {
                mine.await(LONGEST_HOLD.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            } finally {
                waiting.decrementAndGet();
            }
        }

        /** The batches waiting now go on; the next ones wait again. */
        void passOnce() {
            passed.addAll(delivered);
            CountDownLatch passing = gate;
            gate = new CountDownLatch(1);
            passing.countDown();
        }

        private void openForGood() {
            open = true;
            gate.countDown();
        }

        /** Batches waiting at the gate now. */
        int waiting() {
            return waiting.get();
        }

        /** Events of the held activity handed to the consumer's use case so far. */
        Set<ReservationId> delivered() {
            return Set.copyOf(delivered);
        }
    }

    @Override
    public List<OrderPlacement> placeOrders(List<Reservation> batch) {
        ActivityId poisoned = poisonedActivity;
        if (poisoned != null && batch.stream().anyMatch(reservation -> poisoned.equals(reservation.activityId()))) {
            throw new IllegalStateException("poison: a constraint broken by a reservation of " + poisoned.value());
        }
        Holding held = holding;
        if (held != null && batch.stream().anyMatch(held::holds)) {
            held.await(batch);
            batch = batch.stream().filter(reservation -> !held.holds(reservation)).toList();
            if (batch.isEmpty()) {
                return List.of();
            }
        }
        Plan current = plan;
        if (current == null) {
            return delegate.placeOrders(batch);
        }
        Set<ReservationId> chosen = new LinkedHashSet<>();
        for (Reservation reservation : batch) {
            if (current.activity().equals(reservation.activityId()) && seen.add(reservation.id())
                    && deliveries.incrementAndGet() % current.everyNth() == 0) {
                chosen.add(reservation.id());
            }
        }
        if (chosen.isEmpty()) {
            return delegate.placeOrders(batch);
        }
        if (current.moment() == Moment.AFTER_REDIS) {
            delegate.placeOrders(batch);
        } else {
            orders.placeAll(batch.stream().distinct().toList(), Instant.now());
        }
        crashed.addAll(chosen);
        // The container restarts once per plan, at the first crash; later crashes are plain failed deliveries.
        if (restartDue.compareAndSet(true, false)) {
            restarting.set(true);
            Thread.ofPlatform().name("consumer-restart").start(() -> restartContainer(current.restartContainerAfter()));
        }
        throw new SimulatedCrash(chosen);
    }

    private void restartContainer(Duration after) {
        try {
            MessageListenerContainer container = listeners.getObject()
                    .getListenerContainer(ReservationOrderListener.LISTENER_ID);
            container.stop();
            Thread.sleep(after);
            container.start();
            restarts.incrementAndGet();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        } finally {
            restarting.set(false);
        }
    }
}
