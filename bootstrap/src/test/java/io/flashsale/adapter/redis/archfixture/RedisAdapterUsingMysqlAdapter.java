package io.flashsale.adapter.redis.archfixture;

import io.flashsale.adapter.mysql.archfixture.MysqlAdapterPart;

/** Breaks the rules on purpose: one adapter using another. */
public class RedisAdapterUsingMysqlAdapter {

    public MysqlAdapterPart other;
}
