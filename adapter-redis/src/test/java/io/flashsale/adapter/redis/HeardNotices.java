package io.flashsale.adapter.redis;

import io.flashsale.application.reservation.port.out.StockReturnListener;
import io.flashsale.application.sale.port.out.SaleChangeListener;
import io.flashsale.domain.activity.ActivityId;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;

import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/** What a listener of pub/sub notices heard, with when (System.nanoTime) it heard it. */
final class HeardNotices implements StockReturnListener, SaleChangeListener {

    final BlockingQueue<String> notices = new LinkedBlockingQueue<>();

    @Override
    public void returned(ActivityId returned) {
        notices.add(returned.value() + "@" + System.nanoTime());
    }

    @Override
    public void changed(ActivityId changed) {
        notices.add(changed.value() + "@" + System.nanoTime());
    }

    @Override
    public void missedSome() {
        notices.add("missed@" + System.nanoTime());
    }

    /**
     * Nanos at which a listener heard that it missed some, after Redis killed the subscription connection it listens
     * on (-1 when it did not within ten seconds); {@code listen} subscribes the listener on that connection.
     */
    static long missedAfterTheSubscriptionIsKilled(
            BiConsumer<StatefulRedisPubSubConnection<String, String>, HeardNotices> listen) throws InterruptedException {
        String name = "heard-" + UUID.randomUUID().toString().substring(0, 8);
        try (StatefulRedisPubSubConnection<String, String> subscription = SharedRedis.connectPubSub(name)) {
            var heard = new HeardNotices();
            listen.accept(subscription, heard);

            SharedRedis.killClientsNamed(name);

            return heard.awaitNotice("missed", 10_000);
        }
    }

    /** Nanos at which {@code what} was heard, waiting at most {@code timeoutMs}; -1 when it was not. */
    long awaitNotice(String what, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (true) {
            long left = deadline - System.nanoTime();
            String notice = notices.poll(Math.max(0, left), TimeUnit.NANOSECONDS);
            if (notice == null) {
                return -1;
            }
            if (notice.startsWith(what + "@")) {
                return Long.parseLong(notice.substring(notice.indexOf('@') + 1));
            }
        }
    }
}
