package io.flashsale.chaos.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/** Every request of one schedule with its answer, and every fault as it was applied, on one clock. */
public final class History {

    /** A fault as it happened: when it began and when it was healed, from the start of the workload. */
    public record FaultEvent(String kind, long startedMillis, long endedMillis) {
    }

    private final long startNanos;
    private final AtomicLong ids = new AtomicLong();
    private final ConcurrentLinkedQueue<Entry> entries = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<FaultEvent> faults = new ConcurrentLinkedQueue<>();

    /** @param startNanos the clock's zero, shared by the histories of schedules that run at the same time */
    public History(long startNanos) {
        this.startNanos = startNanos;
    }

    public long nowMillis() {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    public long nextId() {
        return ids.incrementAndGet();
    }

    public void add(Entry entry) {
        entries.add(entry);
    }

    public void addFault(FaultEvent fault) {
        faults.add(fault);
    }

    public List<Entry> entries() {
        List<Entry> sorted = new ArrayList<>(entries);
        sorted.sort(Comparator.comparingLong(Entry::sentMillis).thenComparingLong(Entry::id));
        return sorted;
    }

    public List<FaultEvent> faults() {
        return List.copyOf(faults);
    }
}
