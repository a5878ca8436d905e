package io.flashsale.testsupport;

import io.flashsale.embedded.EmbeddedMariaDb;
import io.flashsale.embedded.EmbeddedRedis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;

/**
 * The servers the run command's demo mode uses (Redis 6.2 and MariaDB 10.11 from Maven artifacts), started once per
 * test JVM on free ports with throwaway data, and stopped when it exits.
 */
final class EmbeddedServices {

    private static EmbeddedRedis redis;
    private static EmbeddedMariaDb mariadb;

    private EmbeddedServices() {
    }

    static synchronized RedisEndpoint redis() {
        if (redis == null) {
            try {
                EmbeddedRedis started = EmbeddedRedis.start(Files.createTempDirectory("flashsale-test-redis-"), 0);
                Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(started::close));
                redis = started;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create the embedded Redis's directory", e);
            }
        }
        return new RedisEndpoint(redis.address().host(), redis.address().port());
    }

    static synchronized MariaDbEndpoint mariadb() {
        if (mariadb == null) {
            EmbeddedMariaDb started = EmbeddedMariaDb.startThrowaway(0);
            Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(started::close));
            mariadb = started;
        }
        return new MariaDbEndpoint(mariadb.address().host(), mariadb.address().port(), EmbeddedMariaDb.USER,
                EmbeddedMariaDb.PASSWORD);
    }
}
