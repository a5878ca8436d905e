package io.flashsale.bootstrap.config.archfixture;

import io.lettuce.core.RedisClient;

/** Breaks the rules on purpose: Lettuce in bootstrap's wiring, which builds the Redis adapters through RedisHotStore. */
public class WiringUsingLettuce {

    public RedisClient client;
}
