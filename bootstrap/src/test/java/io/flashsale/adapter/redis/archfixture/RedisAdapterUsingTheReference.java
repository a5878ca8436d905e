package io.flashsale.adapter.redis.archfixture;

import io.flashsale.application.reference.archfixture.ReferenceStore;

/** Breaks the rules on purpose: an adapter leaning on the in-memory reference instead of real Redis. */
public class RedisAdapterUsingTheReference {

    public ReferenceStore reference;
}
