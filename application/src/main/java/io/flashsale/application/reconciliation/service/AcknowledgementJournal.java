package io.flashsale.application.reconciliation.service;

import io.flashsale.domain.reservation.Reservation;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The reservations this instance told a buyer RESERVED, the most recent {@code capacity} of them, in a ring: what a
 * {@link LostReservationAudit} compares with both stores after the hot store restarted. Redis may lose an accepted
 * reservation before its event left the outbox; then this journal is the only place that still knows it existed.
 * <p>
 * Adding costs one atomic increment and one slot write (the reservation object is the one the answer carries), so it
 * sits on the reservation path; the price is memory: the ring holds on to {@code capacity} reservations (about 200-300
 * bytes each). An entry older than the ring's reach is overwritten; the audit counts such entries as unaudited.
 * Thread-safe.
 */
public final class AcknowledgementJournal {

    private final AtomicReferenceArray<Reservation> ring;
    private final int mask;
    private final AtomicLong written = new AtomicLong();

    /** @param capacity rounded up to a power of two; 0 keeps nothing (the audit is off) */
    public AcknowledgementJournal(int capacity) {
        if (capacity < 0 || capacity > 1 << 30) {
            throw new IllegalArgumentException("capacity must be within 0 and 2^30: " + capacity);
        }
        int size = capacity <= 1 ? capacity : Integer.highestOneBit(capacity - 1) << 1;
        this.ring = new AtomicReferenceArray<>(size);
        this.mask = size - 1;
    }

    public boolean keepsAnything() {
        return ring.length() > 0;
    }

    public void add(Reservation reservation) {
        if (ring.length() == 0) {
            return;
        }
        ring.set((int) (written.getAndIncrement() & mask), reservation);
    }

    /** How many entries were ever added: a position in the journal. */
    public long written() {
        return written.get();
    }

    /**
     * The entries added at positions {@code [from, to)} that the ring still holds, oldest first. An add racing this
     * read may be missing (its slot not written yet) or, rarely, read as the entry it overwrites.
     */
    public List<Reservation> between(long from, long to) {
        long oldest = Math.max(from, to - ring.length());
        List<Reservation> entries = new ArrayList<>((int) Math.max(0, to - oldest));
        for (long position = oldest; position < to; position++) {
            Reservation entry = ring.get((int) (position & mask));
            if (entry != null) {
                entries.add(entry);
            }
        }
        return entries;
    }
}
