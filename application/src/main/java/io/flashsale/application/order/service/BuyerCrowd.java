package io.flashsale.application.order.service;

import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * Whether this instance's buyers queue for its CPU (ADR 65): attempts arrived since the last look, and the machine's
 * CPU was at least {@code busyAt} busy meanwhile. The order pipeline then lets them go first. Busy alone is not a
 * crowd (a pipeline draining a backlog keeps the CPU busy by itself), and neither are buyers alone (a machine with
 * CPU to spare serves both). The answer is worked out at most once per {@code look}, whoever asks, so that the CPU
 * figure always covers a whole look; and a crowd is gone only after a whole look without one, because a single look's
 * CPU figure is coarse (the kernel counts CPU time in ticks) and a batch let go too early costs the crowd a batch.
 */
public final class BuyerCrowd {

    private final LongAdder arrivals = new LongAdder();
    private final DoubleSupplier cpuBusy;
    private final double busyAt;
    private final long lookNanos;
    private final LongSupplier nanoTime;
    private long lookedAt;
    private long arrivalsAtLook;
    private boolean crowdedAtLastLook;
    private boolean crowded;

    /**
     * @param cpuBusy the machine's CPU use since the supplier was last asked, 0 to 1 (negative when unknown)
     * @param busyAt  the use from which buyers who keep arriving count as a crowd, above 0 and at most 1
     */
    public BuyerCrowd(DoubleSupplier cpuBusy, double busyAt, Duration look, LongSupplier nanoTime) {
        if (!(busyAt > 0 && busyAt <= 1) || look.isNegative() || look.isZero()) {
            throw new IllegalArgumentException("busyAt must be in (0, 1] and look positive");
        }
        this.cpuBusy = cpuBusy;
        this.busyAt = busyAt;
        this.lookNanos = look.toNanos();
        this.nanoTime = nanoTime;
        this.lookedAt = nanoTime.getAsLong() - lookNanos;
    }

    /** Never a crowd: for services that run without the buyers (tests, pipeline-only instances). */
    public static BuyerCrowd never() {
        return new BuyerCrowd(() -> 0, 1, Duration.ofMillis(1), System::nanoTime);
    }

    void arrived() {
        arrivals.increment();
    }

    public synchronized boolean crowded() {
        long now = nanoTime.getAsLong();
        if (now - lookedAt >= lookNanos) {
            long seen = arrivals.sum();
            // Asked every look, buyers or not, so that the next figure covers the next look only.
            double busy = cpuBusy.getAsDouble();
            boolean crowdedNow = seen > arrivalsAtLook && busy >= busyAt;
            crowded = crowdedNow || crowdedAtLastLook;
            crowdedAtLastLook = crowdedNow;
            arrivalsAtLook = seen;
            lookedAt = now;
        }
        return crowded;
    }
}
