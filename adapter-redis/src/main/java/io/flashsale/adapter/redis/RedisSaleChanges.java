package io.flashsale.adapter.redis;

import io.flashsale.application.sale.port.out.SaleChangeListener;
import io.flashsale.application.sale.port.out.SaleChangesPort;
import io.flashsale.domain.activity.ActivityId;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;

import java.util.function.Consumer;

/**
 * Changes of sales on Redis pub/sub ({@link RedisKeys#saleChangesChannel(String)}), on the subscription connection the
 * returns of units use; see {@link ActivityNotices} for how every instance hears them.
 */
final class RedisSaleChanges implements SaleChangesPort {

    private final ActivityNotices<SaleChangeListener> notices;

    RedisSaleChanges(Consumer<String> publisher, String channel) {
        this.notices = new ActivityNotices<>(channel, publisher, SaleChangeListener::changed,
                SaleChangeListener::missedSome);
    }

    void listenOn(StatefulRedisPubSubConnection<String, String> connection) {
        notices.listenOn(connection);
    }

    @Override
    public void announce(ActivityId activityId) {
        notices.announce(activityId);
    }

    @Override
    public void subscribe(SaleChangeListener listener) {
        notices.subscribe(listener);
    }
}
