package io.flashsale.testsupport;

/** This machine's servers; addresses overridable by environment variables or system properties. */
final class LocalServices {

    private LocalServices() {
    }

    static RedisEndpoint redis() {
        return new RedisEndpoint(
                Env.get("FLASHSALE_TEST_REDIS_HOST", "127.0.0.1"),
                Env.getInt("FLASHSALE_TEST_REDIS_PORT", 6379));
    }

    static MariaDbEndpoint mariadb() {
        return new MariaDbEndpoint(
                Env.get("FLASHSALE_TEST_DB_HOST", "127.0.0.1"),
                Env.getInt("FLASHSALE_TEST_DB_PORT", 3306),
                Env.get("FLASHSALE_TEST_DB_USER", "root"),
                Env.get("FLASHSALE_TEST_DB_PASSWORD", ""));
    }
}
