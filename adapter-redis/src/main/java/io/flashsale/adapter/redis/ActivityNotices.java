package io.flashsale.adapter.redis;

import io.flashsale.domain.activity.ActivityId;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Notices about activities on one Redis pub/sub channel of the deployment: {@link #announce} tells this instance's
 * listeners at once and every other instance through one PUBLISH (the message is the activity id). An instance listens
 * on a connection of its own; when that connection (re)subscribes, its listeners are told they missed some, since
 * notices sent while it was down are lost.
 *
 * @param <L> the listener type of the port the notices serve
 */
final class ActivityNotices<L> {

    private final String channel;
    private final Consumer<String> publisher;
    private final BiConsumer<L, ActivityId> heard;
    private final Consumer<L> missed;
    private final List<L> listeners = new CopyOnWriteArrayList<>();

    /**
     * @param heard  tells one listener of a notice about an activity
     * @param missed tells one listener that notices may have been lost
     */
    ActivityNotices(String channel, Consumer<String> publisher, BiConsumer<L, ActivityId> heard, Consumer<L> missed) {
        this.channel = channel;
        this.publisher = publisher;
        this.heard = heard;
        this.missed = missed;
    }

    void listenOn(StatefulRedisPubSubConnection<String, String> connection) {
        connection.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(String from, String activityId) {
                if (channel.equals(from)) {
                    tell(new ActivityId(activityId));
                }
            }

            @Override
            public void subscribed(String to, long count) {
                if (channel.equals(to)) {
                    listeners.forEach(missed);
                }
            }
        });
        connection.sync().subscribe(channel);
    }

    void subscribe(L listener) {
        listeners.add(listener);
    }

    void announce(ActivityId activityId) {
        tell(activityId);
        publisher.accept(activityId.value());
    }

    private void tell(ActivityId activityId) {
        for (L listener : listeners) {
            heard.accept(listener, activityId);
        }
    }

    String channel() {
        return channel;
    }
}
