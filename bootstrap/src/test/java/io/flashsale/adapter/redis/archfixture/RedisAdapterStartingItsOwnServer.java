package io.flashsale.adapter.redis.archfixture;

import io.flashsale.embedded.EmbeddedRedis;
import redis.embedded.RedisServer;

/** Breaks the rules on purpose: an adapter starting a packaged server instead of using the one it is given. */
public class RedisAdapterStartingItsOwnServer {

    public RedisServer server;

    public EmbeddedRedis embedded;
}
