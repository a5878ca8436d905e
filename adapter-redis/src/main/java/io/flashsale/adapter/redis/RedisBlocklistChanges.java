package io.flashsale.adapter.redis;

import io.flashsale.application.blocklist.port.out.BlocklistChangeListener;
import io.flashsale.application.blocklist.port.out.BlocklistChangesPort;
import io.flashsale.domain.activity.ActivityId;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;

import java.util.function.Consumer;

/**
 * Changes of the blocklist on Redis pub/sub ({@link RedisKeys#blocklistChangesChannel(String)}), on the subscription
 * connection the returns of units use; see {@link ActivityNotices} for how every instance hears them. The notice says
 * only that the list changed (its message is a fixed word): every instance reads the whole list again.
 */
final class RedisBlocklistChanges implements BlocklistChangesPort {

    private static final ActivityId NOTICE = new ActivityId("blocklist");

    private final ActivityNotices<BlocklistChangeListener> notices;

    RedisBlocklistChanges(Consumer<String> publisher, String channel) {
        this.notices = new ActivityNotices<>(channel, publisher, (listener, notice) -> listener.stale(),
                BlocklistChangeListener::stale);
    }

    void listenOn(StatefulRedisPubSubConnection<String, String> connection) {
        notices.listenOn(connection);
    }

    @Override
    public void announce() {
        notices.announce(NOTICE);
    }

    @Override
    public void subscribe(BlocklistChangeListener listener) {
        notices.subscribe(listener);
    }
}
