package io.flashsale.application.archfixture;

import io.lettuce.core.RedisClient;

/** Breaks the rules on purpose: the application talking to Redis itself. */
public class ApplicationUsingLettuce {

    public RedisClient client;
}
