package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.CoalescedNotices;
import io.flashsale.application.order.port.out.OutboxNewsListener;
import io.flashsale.application.order.port.out.OutboxNewsPort;
import io.flashsale.domain.activity.ActivityId;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Outbox news on Redis pub/sub (ADR 0067): the reserve path calls {@link #announce} for every accepted reservation,
 * which tells this instance's listeners (its relay) at once, without Redis, and the other instances through a PUBLISH
 * of the activity id on the deployment's channel ({@link RedisKeys#outboxNewsChannel(String)}), at most one per
 * activity per {@link #WINDOW} from this instance. Each instance listens on its subscription connection; when that
 * connection (re)subscribes, the listeners hear {@code missedSome}, since notices sent while it was down are lost.
 */
public final class RedisOutboxNews implements OutboxNewsPort, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(RedisOutboxNews.class.getName());
    /** Coalesces a sale's notices from one instance: its Redis cost is bounded however fast reservations come. */
    static final Duration WINDOW = Duration.ofMillis(5);

    private final String channel;
    private final CoalescedNotices notices;
    private final List<OutboxNewsListener> listeners = new CopyOnWriteArrayList<>();

    /** Not listening yet: {@link #listenOn} once a subscription connection is made. */
    RedisOutboxNews(Consumer<String> publisher, String channel) {
        this.channel = channel;
        this.notices = new CoalescedNotices("outbox-news " + channel, WINDOW, publisher);
    }

    void listenOn(StatefulRedisPubSubConnection<String, String> connection) {
        connection.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(String from, String activityId) {
                if (channel.equals(from)) {
                    heard(activityId);
                }
            }

            @Override
            public void subscribed(String to, long count) {
                if (channel.equals(to)) {
                    listeners.forEach(OutboxNewsListener::missedSome);
                }
            }
        });
        connection.sync().subscribe(channel);
    }

    private void heard(String message) {
        ActivityId activityId;
        try {
            activityId = new ActivityId(message);
        } catch (IllegalArgumentException notAnActivityId) {
            LOG.log(Level.WARNING, "outbox news on {0} named no activity: {1}", channel, message);
            return;
        }
        tell(activityId);
    }

    @Override
    public void subscribe(OutboxNewsListener listener) {
        listeners.add(listener);
    }

    /** The activity's outbox has a new entry: this instance's relay hears it now, the others within the window. */
    void announce(ActivityId activityId) {
        tell(activityId);
        notices.notice(activityId.value());
    }

    private void tell(ActivityId activityId) {
        for (OutboxNewsListener listener : listeners) {
            listener.news(activityId);
        }
    }

    /** Stops publishing; the subscription connection is closed with the hot store's. */
    @Override
    public void close() {
        notices.close();
    }
}
