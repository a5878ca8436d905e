package io.flashsale.adapter.redis;

import io.flashsale.application.port.out.StockReturnListener;
import io.flashsale.application.port.out.StockReturnsPort;
import io.flashsale.domain.activity.ActivityId;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Returns of units on Redis pub/sub: the adapter that gave units back calls {@link #announce}, which tells this
 * instance's listeners at once and every other instance through one PUBLISH on the deployment's channel
 * ({@link RedisKeys#stockReturnsChannel(String)}). Each instance listens on a connection of its own; when that
 * connection (re)subscribes, the listeners hear {@code missedSome}, since notices sent while it was down are lost.
 */
public final class RedisStockReturns implements StockReturnsPort, AutoCloseable {

    private final String channel;
    private final Consumer<String> publisher;
    private volatile StatefulRedisPubSubConnection<String, String> subscription;
    private final List<StockReturnListener> listeners = new CopyOnWriteArrayList<>();

    RedisStockReturns(StatefulRedisPubSubConnection<String, String> subscription, Consumer<String> publisher,
                      String channel) {
        this(publisher, channel);
        listenOn(subscription);
    }

    /** Not listening yet: {@link #listenOn} once a subscription connection is made (Redis was down at start). */
    RedisStockReturns(Consumer<String> publisher, String channel) {
        this.channel = channel;
        this.publisher = publisher;
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
                    listeners.forEach(StockReturnListener::missedSome);
                }
            }
        });
        connection.sync().subscribe(channel);
        this.subscription = connection;
    }

    @Override
    public void subscribe(StockReturnListener listener) {
        listeners.add(listener);
    }

    /** Units of the activity may be buyable again: this instance forgets at once, the others on the notice. */
    void announce(ActivityId activityId) {
        tell(activityId);
        publisher.accept(activityId.value());
    }

    private void tell(ActivityId activityId) {
        for (StockReturnListener listener : listeners) {
            listener.returned(activityId);
        }
    }

    String channel() {
        return channel;
    }

    @Override
    public void close() {
        if (subscription != null) {
            subscription.close();
        }
    }
}
