package io.flashsale.adapter.redis;

import io.flashsale.application.reservation.port.out.StockReturnListener;
import io.flashsale.application.reservation.port.out.StockReturnsPort;
import io.flashsale.domain.activity.ActivityId;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;

import java.util.function.Consumer;

/**
 * Returns of units on Redis pub/sub ({@link RedisKeys#stockReturnsChannel(String)}): the adapter that gave units back
 * calls {@link #announce}; see {@link ActivityNotices} for how every instance hears it.
 */
public final class RedisStockReturns implements StockReturnsPort, AutoCloseable {

    private final ActivityNotices<StockReturnListener> notices;
    private volatile StatefulRedisPubSubConnection<String, String> subscription;

    RedisStockReturns(StatefulRedisPubSubConnection<String, String> subscription, Consumer<String> publisher,
                      String channel) {
        this(publisher, channel);
        listenOn(subscription);
    }

    /** Not listening yet: {@link #listenOn} once a subscription connection is made (Redis was down at start). */
    RedisStockReturns(Consumer<String> publisher, String channel) {
        this.notices = new ActivityNotices<>(channel, publisher, StockReturnListener::returned,
                StockReturnListener::missedSome);
    }

    void listenOn(StatefulRedisPubSubConnection<String, String> connection) {
        notices.listenOn(connection);
        this.subscription = connection;
    }

    @Override
    public void subscribe(StockReturnListener listener) {
        notices.subscribe(listener);
    }

    /** Units of the activity may be buyable again: this instance forgets at once, the others on the notice. */
    void announce(ActivityId activityId) {
        notices.announce(activityId);
    }

    String channel() {
        return notices.channel();
    }

    @Override
    public void close() {
        if (subscription != null) {
            subscription.close();
        }
    }
}
