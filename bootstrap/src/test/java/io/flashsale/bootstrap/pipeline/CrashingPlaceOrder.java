package io.flashsale.bootstrap.pipeline;

import io.flashsale.adapter.kafka.ReservationOrderListener;
import io.flashsale.application.port.in.PlaceOrderBatchUseCase;
import io.flashsale.application.port.out.OrderRepository;
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
    private final OrderRepository orders;
    private final ObjectProvider<KafkaListenerEndpointRegistry> listeners;
    private final AtomicInteger deliveries = new AtomicInteger();
    private final Set<ReservationId> crashed = ConcurrentHashMap.newKeySet();
    private final Set<ReservationId> seen = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean restartDue = new AtomicBoolean();
    private final AtomicBoolean restarting = new AtomicBoolean();
    private final AtomicInteger restarts = new AtomicInteger();
    private volatile Plan plan;

    CrashingPlaceOrder(PlaceOrderBatchUseCase delegate, OrderRepository orders,
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

    @Override
    public List<OrderPlacement> placeOrders(List<Reservation> batch) {
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
