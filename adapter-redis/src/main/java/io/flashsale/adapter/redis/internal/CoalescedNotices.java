package io.flashsale.adapter.redis.internal;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Sends notices on a thread of its own, at most one per key per {@code window}: the first of a quiet key at once, the
 * ones that follow within the window together at its end, so the last notice of a burst is never held back longer
 * than the window. {@link #notice} never blocks and costs a set insertion when the key waits already.
 */
public final class CoalescedNotices implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(CoalescedNotices.class.getName());

    private final Set<String> waiting = ConcurrentHashMap.newKeySet();
    private final Consumer<String> send;
    private final long windowNanos;
    private final Thread sender;
    private volatile boolean open = true;

    public CoalescedNotices(String name, Duration window, Consumer<String> send) {
        this.send = send;
        this.windowNanos = window.toNanos();
        this.sender = Thread.ofPlatform().name(name).daemon().start(this::run);
    }

    public void notice(String key) {
        if (waiting.add(key)) {
            LockSupport.unpark(sender);
        }
    }

    private void run() {
        while (open) {
            if (waiting.isEmpty()) {
                LockSupport.park(this);
                continue;
            }
            for (Iterator<String> next = waiting.iterator(); next.hasNext(); ) {
                String key = next.next();
                next.remove();
                sendQuietly(key);
            }
            // The window: notices arriving meanwhile wait and go out together.
            long until = System.nanoTime() + windowNanos;
            for (long left = windowNanos; left > 0 && open; left = until - System.nanoTime()) {
                LockSupport.parkNanos(this, left);
            }
        }
    }

    private void sendQuietly(String key) {
        try {
            send.accept(key);
        } catch (RuntimeException lost) {
            // A notice is a hint: whoever misses it finds the work on a later sweep.
            LOG.log(Level.DEBUG, "notice for {0} not sent: {1}", key, lost.toString());
        }
    }

    /** Stops the sender; notices still waiting are dropped. */
    @Override
    public void close() {
        open = false;
        LockSupport.unpark(sender);
    }
}
